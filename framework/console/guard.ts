/**
 * Who may talk to the console. Pure checks on a request's headers:
 * - An API request a browser marks as coming from another site (`Sec-Fetch-Site`) is refused.
 * - Every request names this server in `Host`: an IP address, `localhost`, or a name listed in
 *   SLUICE_CONSOLE_HOSTS. A page on another site that points its own DNS name at 127.0.0.1 (DNS
 *   rebinding) sends its name, and is refused, so it can read nothing.
 * - A state-changing request (POST) also carries the page's token (`x-sluice-token`, served in
 *   the page itself, which another origin cannot read), is JSON (which a plain cross-site form
 *   cannot send), and comes from this origin (`Origin`, and `Sec-Fetch-Site` where sent).
 */
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export interface GuardSettings {
  token: string;
  /** Host names accepted besides IP addresses and localhost. */
  hosts: readonly string[];
}

export interface RequestHeaders {
  host?: string | undefined;
  origin?: string | undefined;
  'sec-fetch-site'?: string | undefined;
  'content-type'?: string | undefined;
  'x-sluice-token'?: string | string[] | undefined;
}

/**
 * Undefined if the request may be served; otherwise why not (the answer's text). `api`: the JSON
 * API, which another site's page may not even make the server read (an `<img>` of /api/failures
 * reads whole topics): refused when the browser says the request came from another site.
 */
export function refusedRead(h: RequestHeaders, s: GuardSettings, api = false): string | undefined {
  const host = hostName(h.host);
  if (host === undefined) return 'a request without a Host header is not served';
  if (!(isIP(host) !== 0 || host === 'localhost' || s.hosts.includes(host))) {
    return `Host "${host}" is not this console's: open it by IP address or localhost, or list the name in SLUICE_CONSOLE_HOSTS`;
  }
  const site = h['sec-fetch-site'];
  if (api && site !== undefined && site !== 'same-origin' && site !== 'none') return `a ${site} request is not served here`;
  return undefined;
}

export function refusedWrite(h: RequestHeaders, s: GuardSettings): string | undefined {
  const read = refusedRead(h, s);
  if (read) return read;
  const site = h['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `a ${site} request cannot change anything here`;
  if (h.origin !== undefined && !sameOrigin(h.origin, h.host!)) return `Origin ${h.origin} is not this console's`;
  if (!/^application\/json\b/i.test(h['content-type'] ?? '')) return 'send JSON (content-type: application/json)';
  const token = h['x-sluice-token'];
  if (typeof token !== 'string' || !equal(token, s.token)) return 'missing or wrong x-sluice-token header: reload the console page';
  return undefined;
}

function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!;
  return host.replace(/:\d+$/, '').toLowerCase();
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    const o = new URL(origin);
    return o.protocol === 'http:' && o.host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
