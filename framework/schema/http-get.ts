/**
 * One bounded GET of a JSON document over HTTP or HTTPS, with the registry's basic auth and TLS
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
  timeoutMs: number;
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
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', headers, timeout: s.timeoutMs, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${s.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
