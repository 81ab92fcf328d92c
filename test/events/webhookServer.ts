/**
 * A webhook receiver on 127.0.0.1 for the tests: records every attempt (body, sequence header, time)
 * and answers as the test says — a status code, or "hang" (never answer, as a dead endpoint).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Attempt {
  path: string;
  sequence: string | undefined;
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
  at: number;
  status: number | "hang";
}

/** Decides the answer to an attempt, given the attempts before it. */
export type Answer = (body: string, previous: readonly Attempt[]) => number | "hang";

export interface WebhookServer {
  url: string;
  attempts: Attempt[];
  /** The bodies answered 2xx, parsed, in arrival order. */
  delivered(): unknown[];
  close(): Promise<void>;
}

export async function startWebhookServer(answer: Answer): Promise<WebhookServer> {
  const attempts: Attempt[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const status = answer(body, attempts);
      const header = request.headers["x-fleet-update-sequence"];
      attempts.push({ path: request.url ?? "", sequence: Array.isArray(header) ? header[0] : header, contentType: request.headers["content-type"], authorization: request.headers.authorization, body, at: performance.now(), status });
      if (status === "hang") hanging.push(response);
      else response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    delivered: () => attempts.filter((a) => typeof a.status === "number" && a.status < 300).map((a) => JSON.parse(a.body) as unknown),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answer `status` to the first `count` attempts at each distinct body, then 200. */
export function failFirst(count: number, status = 503): Answer {
  return (body, previous) => (previous.filter((a) => a.body === body).length < count ? status : 200);
}
