/**
 * Where the health server listens: `SLUICE_HTTP_PORT`, else `custom.sluice.http.port`, else
 * 9464, on `SLUICE_HTTP_HOST`, else loopback. Loopback in the container too: the server is
 * unauthenticated, and the ECS health check runs inside the task (`127.0.0.1`); a scraper from
 * outside the task needs SLUICE_HTTP_HOST=0.0.0.0 (or one address) set explicitly. Locally, on the
 * default port only, it moves to a free port when another poller holds it (the log prints the URL).
 */
import { isIP } from 'node:net';
import type { ServiceSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, HTTP_HOST_ENV, HTTP_PORT_ENV } from '../config/http.ts';

export interface HttpSettings {
  host: string;
  port: number;
  explicit: boolean;
}

export function httpSettings(where: 'local' | 'container', env: NodeJS.ProcessEnv, service?: Pick<ServiceSpec, 'http'>): HttpSettings {
  const host = httpHost(env);
  const raw = env[HTTP_PORT_ENV]?.trim();
  if (raw) {
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${HTTP_PORT_ENV}=${raw}: not a TCP port; set it to an integer 0–65535 (0: any free port), or unset it for ${DEFAULT_HTTP_PORT}.`);
    return { host, port, explicit: true };
  }
  if (service?.http) return { host, port: service.http.port, explicit: true };
  return { host, port: DEFAULT_HTTP_PORT, explicit: where === 'container' };
}

function httpHost(env: NodeJS.ProcessEnv): string {
  const raw = env[HTTP_HOST_ENV]?.trim();
  if (!raw) return DEFAULT_HTTP_HOST;
  if (isIP(raw) === 0) throw new ConfigError(`${HTTP_HOST_ENV}=${raw}: not an IP address; set it to an address of this machine (0.0.0.0 or :: for every interface), or unset it for ${DEFAULT_HTTP_HOST}, loopback only.`);
  return raw;
}

/** An address to reach a server listening on `host` from this machine, as a URL host. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return DEFAULT_HTTP_HOST;
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
