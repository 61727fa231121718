/**
 * For the MSK IAM tests: a self-signed certificate for 127.0.0.1 made with openssl, and a TLS
 * proxy that terminates the client's TLS with it, forwards every byte to a broker over TLS, and
 * parses the Kafka requests the client sent, so a test can read the SASL mechanism and the
 * authentication bytes that went over the wire.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

export interface TestCertificate {
  cert: string;
  key: string;
  /** Key then certificate, for a Kafka PEM keystore. */
  keystorePemFile: string;
}

export function selfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tls-'));
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'pipe' });
  const [key, cert] = [readFileSync(keyFile, 'utf8'), readFileSync(certFile, 'utf8')];
  const keystorePemFile = join(dir, 'keystore.pem');
  writeFileSync(keystorePemFile, `${key}${cert}`);
  return { cert, key, keystorePemFile };
}

/** One Kafka request as the client sent it (request header v1: api key, version, correlation id, client id). */
export interface CapturedRequest {
  apiKey: number;
  apiVersion: number;
  clientId: string | null;
  body: Buffer;
}

export const API_KEYS = { saslHandshake: 17, saslAuthenticate: 36 } as const;

export interface CaptureProxy {
  port: number;
  requests(): CapturedRequest[];
  close(): Promise<void>;
}

export async function captureProxy(o: { port: number; target: { host: string; port: number }; certificate: TestCertificate }): Promise<CaptureProxy> {
  const captured: CapturedRequest[] = [];
  const sockets = new Set<tls.TLSSocket>();
  const server = tls.createServer({ key: o.certificate.key, cert: o.certificate.cert }, (client) => {
    const upstream = tls.connect({ ...o.target, ca: [o.certificate.cert] });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => [client, upstream].forEach((x) => x.destroy()));
    }
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const size = pending.readInt32BE(0);
        captured.push(parseRequest(pending.subarray(4, 4 + size)));
        pending = pending.subarray(4 + size);
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(o.port, '127.0.0.1', resolve));
  return {
    port: o.port,
    requests: () => [...captured],
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseRequest(frame: Buffer): CapturedRequest {
  const idLength = frame.readInt16BE(8);
  const clientId = idLength < 0 ? null : frame.subarray(10, 10 + idLength).toString('utf8');
  return { apiKey: frame.readInt16BE(0), apiVersion: frame.readInt16BE(2), clientId, body: frame.subarray(10 + Math.max(idLength, 0)) };
}

/** SaslHandshake's mechanism (a string) and SaslAuthenticate's auth bytes (v0/v1: int32-length bytes). */
export const handshakeMechanism = (r: CapturedRequest): string => r.body.subarray(2, 2 + r.body.readInt16BE(0)).toString('utf8');
export const authBytes = (r: CapturedRequest): Buffer => r.body.subarray(4, 4 + r.body.readInt32BE(0));
