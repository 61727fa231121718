/**
 * One bounded GET of a JSON document over HTTP or HTTPS (a total deadline and a body size cap), with the registry's basic auth and TLS
 * settings (node:https takes a CA, a client certificate and its key directly). The body is read
 * whatever the status, so the caller can tell "no such schema" from "no answer".
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpSettings {
  basicAuth?: { username: string; password: string };
  /** PEM: the CA the registry's certificate is checked against (else the system's). */
  ca?: string;
  /** PEM: a client certificate and key for mutual TLS. */
  cert?: string;
  key?: string;
  passphrase?: string;
  /** The whole request, connection to last byte: a registry that trickles is cut off here. */
  timeoutMs: number;
  /** The most bytes of body read; past it the request is cut off (INPUT_BOUNDS.maxRegistryAnswerBytes). */
  maxBodyBytes: number;
}

/** An answer over maxBodyBytes: the registry answered, with something that is not a schema. */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge';
}

export interface HttpAnswer {
  status: number;
  body: string;
}

export function httpGet(url: URL, s: HttpSettings): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/vnd.schemaregistry.v1+json, application/json' };
  if (s.basicAuth) headers['authorization'] = `Basic ${Buffer.from(`${s.basicAuth.username}:${s.basicAuth.password}`).toString('base64')}`;
  const tls = url.protocol === 'https:' ? { ...(s.ca ? { ca: s.ca } : {}), ...(s.cert ? { cert: s.cert } : {}), ...(s.key ? { key: s.key } : {}), ...(s.passphrase ? { passphrase: s.passphrase } : {}) } : {};
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', headers, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes > s.maxBodyBytes) req.destroy(new AnswerTooLarge(`the answer is over ${s.maxBodyBytes} bytes (maxRegistryAnswerBytes)`));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    const deadline = setTimeout(() => req.destroy(new Error(`no whole answer within ${s.timeoutMs} ms`)), s.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end();
  });
}
