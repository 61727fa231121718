/**
 * The user's cache for what the local services download once (the Kafka jars, the schema
 * registry): outside node_modules and the checkout, shared by every service of the user.
 */
import { homedir } from 'node:os';
import path from 'node:path';

/** `$SLUICE_CACHE_DIR`, else `$XDG_CACHE_HOME/sluice`, else `~/.cache/sluice`. */
export function sluiceCacheRoot(env: Record<string, string | undefined>): string {
  return env['SLUICE_CACHE_DIR'] || (env['XDG_CACHE_HOME'] ? path.join(env['XDG_CACHE_HOME'], 'sluice') : path.join(homedir(), '.cache', 'sluice'));
}
