/**
 * A self-signed TLS certificate for the emulator (the ARM SDK refuses bearer tokens over plain
 * http), made in-process by `selfsigned` over Node's WebCrypto: no `openssl` binary, and no X.509
 * encoding of our own.
 *
 * The certificate is its own trust anchor (CA:TRUE, keyCertSign) and names `127.0.0.1` and
 * `localhost`, so a client that trusts it (`tlsOptions: { ca }`) verifies the emulator's hostname.
 */
import { generate } from "selfsigned";

export interface SelfSignedCertificate {
  /** PEM certificate: give it to clients as `ca`. */
  certificatePem: string;
  /** PEM PKCS#8 private key, for the server only. */
  privateKeyPem: string;
}

const DAY_MS = 86_400_000;

/** An ECDSA P-256 certificate for `127.0.0.1` and `localhost`, valid from yesterday for `validDays`. */
export async function createSelfSignedCertificate(options: { commonName?: string; validDays?: number; now?: number } = {}): Promise<SelfSignedCertificate> {
  const now = options.now ?? Date.now();
  const pems = await generate([{ name: "commonName", value: options.commonName ?? "fleet-update ARM emulator" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + (options.validDays ?? 30) * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, digitalSignature: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  return { certificatePem: pems.cert, privateKeyPem: pems.private };
}
