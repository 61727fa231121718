/**
 * The user's cache for what the local services download once (the Kafka jars, the schema
 * registry): outside node_modules and the checkout, shared by every service of the user.
 */
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';

/** `$SLUICE_CACHE_DIR`, else `$XDG_CACHE_HOME/sluice`, else `~/.cache/sluice`. */
export function sluiceCacheRoot(env: Record<string, string | undefined>): string {
  return env['SLUICE_CACHE_DIR'] || (env['XDG_CACHE_HOME'] ? path.join(env['XDG_CACHE_HOME'], 'sluice') : path.join(homedir(), '.cache', 'sluice'));
}

const resolving = new Map<string, Promise<void>>();

/**
 * One resolution of a cache entry per process at a time: `npm test` starts two brokers and two
 * registries side by side, and two resolutions of one entry in one process shared its staging
 * directory (named after the pid), each clearing what the other copied into it (a fresh
 * machine's CI failed "mvn finished but resolved no kafka_2.13-4.4.0.jar (found 17 jars)").
 * A second caller waits for the first and finds the entry resolved.
 */
export function resolveOnce(entry: string, resolve: () => Promise<void>): Promise<void> {
  const running = resolving.get(entry);
  if (running) return running;
  const started = resolve().finally(() => resolving.delete(entry));
  resolving.set(entry, started);
  return started;
}

/** A staging directory beside `entry`, this call's own (other processes and other calls of this one use others). */
export function stagingFor(entry: string): string {
  return `${entry}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}
