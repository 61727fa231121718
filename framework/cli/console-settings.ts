/**
 * Whether the console runs, and what it may do: `SLUICE_CONSOLE` is `read-write` (replay,
 * produce and redrive from the page), `read-only` (looking only) or `off`. Locally (`npm start`,
 * `serverless sluice start`) it is on, read-write, on the health server's loopback address; in the
 * deployed container it is off unless set, since the task's records are production data there.
 * `SLUICE_CONSOLE_HOSTS` lists host names the console answers to besides IP addresses and localhost.
 */
import { ConfigError } from '../errors.ts';
import type { ConsoleMode } from '../console/api-types.ts';

export const CONSOLE_ENV = 'SLUICE_CONSOLE';
export const CONSOLE_HOSTS_ENV = 'SLUICE_CONSOLE_HOSTS';
const MODES = ['read-write', 'read-only', 'off'] as const;

export function consoleSettings(where: 'local' | 'container', env: NodeJS.ProcessEnv): { mode: ConsoleMode; hosts: string[] } | undefined {
  const raw = env[CONSOLE_ENV]?.trim().toLowerCase();
  const mode = raw || (where === 'local' ? 'read-write' : 'off');
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new ConfigError(`${CONSOLE_ENV}=${env[CONSOLE_ENV]}: use read-write (replay, produce and redrive allowed), read-only, or off.`);
  }
  if (mode === 'off') return undefined;
  const hosts = (env[CONSOLE_HOSTS_ENV] ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  return { mode: mode as ConsoleMode, hosts };
}
