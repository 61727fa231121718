/**
 * The user's cache for what the local services download once (the Kafka jars, the schema
 * registry): outside node_modules and the checkout, shared by every service of the user.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
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

/** A lock older than this is an interrupted swap's (a swap takes milliseconds). */
const STALE_LOCK_MS = 60_000;

/**
 * Puts a complete staging directory in place as `entry`, unless a complete one (with `marker`)
 * is there already: true when this call's went in. Several processes resolving at once (two
 * `npm start`s, a test run beside them) swap one at a time under `<entry>.lock`, so none removes
 * an entry another just completed, and none fails renaming onto it (a review proved both with two
 * processes: ENOTEMPTY, and a finished classpath replaced after its start had returned). An
 * incomplete entry (no marker: an interrupted older resolution) is replaced. The staging directory
 * is always gone afterwards.
 */
export async function moveIntoPlace(staging: string, entry: string, marker: string): Promise<boolean> {
  const lock = `${entry}.lock`;
  const deadline = Date.now() + 2 * STALE_LOCK_MS;
  try {
    for (;;) {
      try {
        await (await open(lock, 'wx')).close();
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
        if (age > STALE_LOCK_MS) await rm(lock, { force: true });
        else if (Date.now() > deadline) throw new Error(`${lock} is held by another resolution for over ${STALE_LOCK_MS / 1000} s; remove it if no other start is running.`);
        else await new Promise((r) => setTimeout(r, 100));
      }
    }
    try {
      if (existsSync(path.join(entry, marker))) return false;
      await rm(entry, { recursive: true, force: true });
      await rename(staging, entry);
      return true;
    } finally {
      await rm(lock, { force: true });
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
