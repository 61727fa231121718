/**
 * Where the health server listens: `SLUICE_HTTP_PORT`, else `custom.sluice.http.port`, else
 * 9464. Locally it binds loopback and, on the default port only, moves to a free port when
 * another poller holds it (the log prints the URL); in the container it binds every interface
 * (the ECS health check and the task's network reach it there).
 */
import type { ServiceSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { DEFAULT_HTTP_PORT, HTTP_PORT_ENV } from '../config/http.ts';

export interface HttpSettings {
  host: string;
  port: number;
  explicit: boolean;
}

export function httpSettings(where: 'local' | 'container', env: NodeJS.ProcessEnv, service?: Pick<ServiceSpec, 'http'>): HttpSettings {
  const host = where === 'local' ? '127.0.0.1' : '0.0.0.0';
  const raw = env[HTTP_PORT_ENV]?.trim();
  if (raw) {
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${HTTP_PORT_ENV}=${raw}: not a TCP port; set it to an integer 0–65535 (0: any free port), or unset it for ${DEFAULT_HTTP_PORT}.`);
    return { host, port, explicit: true };
  }
  if (service?.http) return { host, port: service.http.port, explicit: true };
  return { host, port: DEFAULT_HTTP_PORT, explicit: where === 'container' };
}
