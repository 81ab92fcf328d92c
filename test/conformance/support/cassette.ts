/**
 * A vcrpy cassette (the recording format of the Azure CLI's scenario tests: `interactions`, each a
 * `request` {method, uri, headers, body} and a `response` {status {code}, headers, body {string}}) read
 * into plain records. Header names are lower-cased and each keeps its first value, as vcrpy stores lists.
 */
import fs from "node:fs";
import { parse } from "yaml";

export interface RecordedInteraction {
  /** Position in the cassette, from 0: how reports and expectations name an interaction. */
  index: number;
  method: string;
  /** As recorded (host included). */
  uri: string;
  requestHeaders: Readonly<Record<string, string>>;
  /** The request body as sent, or undefined. */
  requestBody?: string;
  status: number;
  responseHeaders: Readonly<Record<string, string>>;
  /** The response body as received, or undefined when empty. */
  responseBody?: string;
}

interface VcrInteraction {
  request?: { method?: unknown; uri?: unknown; headers?: Record<string, unknown>; body?: unknown };
  response?: { status?: { code?: unknown }; headers?: Record<string, unknown>; body?: { string?: unknown } };
}

function headers(raw: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== null) out[name.toLowerCase()] = String(first);
  }
  return out;
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = value instanceof Uint8Array ? Buffer.from(value).toString("utf8") : String(value);
  return s === "" ? undefined : s;
}

/** The cassette's interactions; a file that is not a cassette is refused, naming what is wrong. */
export function readCassette(file: string): RecordedInteraction[] {
  const doc = parse(fs.readFileSync(file, "utf8")) as { interactions?: unknown };
  if (!Array.isArray(doc?.interactions)) throw new Error(`${file}: not a vcrpy cassette (no 'interactions' list)`);
  return (doc.interactions as VcrInteraction[]).map((x, index) => {
    const method = x.request?.method;
    const uri = x.request?.uri;
    const code = x.response?.status?.code;
    if (typeof method !== "string" || typeof uri !== "string" || typeof code !== "number") {
      throw new Error(`${file}: interaction ${index} has no request method and uri, or no response status code`);
    }
    const requestBody = text(x.request?.body);
    const responseBody = text(x.response?.body?.string);
    return {
      index,
      method: method.toUpperCase(),
      uri,
      requestHeaders: headers(x.request?.headers),
      ...(requestBody === undefined ? {} : { requestBody }),
      status: code,
      responseHeaders: headers(x.response?.headers),
      ...(responseBody === undefined ? {} : { responseBody }),
    };
  });
}
