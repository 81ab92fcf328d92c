/**
 * A self-signed TLS certificate for the emulator, made in-process: `node:crypto` generates the key
 * pair and signs, and the few DER structures of an X.509 v3 certificate are encoded here (no
 * `node-forge`/`selfsigned` is installed, and spawning `openssl` would tie the emulator to a binary).
 *
 * The certificate is its own trust anchor (CA:TRUE, keyCertSign) and names `127.0.0.1` and
 * `localhost`, so a client that trusts it (`tlsOptions: { ca }`) verifies the emulator's hostname.
 */
import crypto from "node:crypto";

export interface SelfSignedCertificate {
  /** PEM certificate: give it to clients as `ca`. */
  certificatePem: string;
  /** PEM PKCS#8 private key, for the server only. */
  privateKeyPem: string;
}

const DAY_MS = 86_400_000;

/** An ECDSA P-256 certificate for `127.0.0.1` and `localhost`, valid from yesterday for `validDays`. */
export function createSelfSignedCertificate(options: { commonName?: string; validDays?: number; now?: number } = {}): SelfSignedCertificate {
  const now = options.now ?? Date.now();
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const name = seq(set(seq(oid("2.5.4.3"), utf8(options.commonName ?? "fleet-update ARM emulator"))));
  const serial = crypto.randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40; // positive and non-zero leading byte
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serial),
    ECDSA_SHA256,
    name,
    seq(time(now - DAY_MS), time(now + (options.validDays ?? 30) * DAY_MS)),
    name,
    spki,
    explicit(3, seq(...extensions(spki))),
  );
  const signature = crypto.sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  const der = seq(tbs, ECDSA_SHA256, bitString(signature));
  return {
    certificatePem: pem("CERTIFICATE", der),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

function extensions(spki: Buffer): Buffer[] {
  const keyId = crypto.createHash("sha1").update(spki).digest();
  const san = seq(tagged(0x87, Buffer.from([127, 0, 0, 1])), tagged(0x82, Buffer.from("localhost", "ascii")));
  return [
    extension("2.5.29.19", true, seq(boolean(true))), // basicConstraints: CA
    extension("2.5.29.15", true, bitString(Buffer.from([0x84]), 2)), // keyUsage: digitalSignature, keyCertSign
    extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"))), // extKeyUsage: serverAuth
    extension("2.5.29.14", false, tagged(0x04, keyId)), // subjectKeyIdentifier
    extension("2.5.29.17", false, san), // subjectAltName: IP 127.0.0.1, DNS localhost
  ];
}

/** AlgorithmIdentifier ecdsa-with-SHA256 (no parameters). */
const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [boolean(true)] : []), tagged(0x04, value));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

// --- DER encoding -------------------------------------------------------------------------------

function tagged(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function seq(...items: Buffer[]): Buffer {
  return tagged(0x30, Buffer.concat(items));
}

function set(...items: Buffer[]): Buffer {
  return tagged(0x31, Buffer.concat(items));
}

function explicit(n: number, content: Buffer): Buffer {
  return tagged(0xa0 | n, content);
}

function integer(bytes: Buffer): Buffer {
  return tagged(0x02, (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function boolean(value: boolean): Buffer {
  return tagged(0x01, Buffer.from([value ? 0xff : 0]));
}

function bitString(bytes: Buffer, unusedBits = 0): Buffer {
  return tagged(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));
}

function utf8(text: string): Buffer {
  return tagged(0x0c, Buffer.from(text, "utf8"));
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const out = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tagged(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
function time(instant: number): Buffer {
  const iso = new Date(instant).toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? tagged(0x17, Buffer.from(digits.slice(2), "ascii")) : tagged(0x18, Buffer.from(digits, "ascii"));
}
