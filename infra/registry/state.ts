/**
 * The files that say which registry an instance directory runs: registry.pid (the pid alone, for
 * humans and scripts) and registry.json (pid, URL, ports, version).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { parseRegistryState, type RegistryPaths, type RegistryState } from './config.ts';

export type RecordedRegistry =
  | { kind: 'none' }
  | { kind: 'recorded'; pid: number; state: RegistryState | undefined };

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function readRecordedRegistry(paths: RegistryPaths): Promise<RecordedRegistry> {
  const pidText = await readIfExists(paths.pidFile);
  if (pidText === undefined) return { kind: 'none' };
  const pid = Number(pidText.trim());
  // Not a pid we wrote: reported as recorded-but-dead (pid 0), so the caller cleans it up.
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'recorded', pid: 0, state: undefined };
  const stateText = await readIfExists(paths.stateFile);
  const state = stateText === undefined ? undefined : parseRegistryState(stateText);
  return { kind: 'recorded', pid, state: state?.pid === pid ? state : undefined };
}

export async function writeRecordedRegistry(paths: RegistryPaths, state: RegistryState): Promise<void> {
  await writeFile(paths.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  await writeFile(paths.pidFile, `${state.pid}\n`);
}

/** Removes registry.pid and registry.json, but only while they still name `pid`. */
export async function clearRecordedRegistry(paths: RegistryPaths, pid: number): Promise<void> {
  const current = await readRecordedRegistry(paths);
  if (current.kind === 'recorded' && current.pid !== pid && current.pid !== 0) return;
  await rm(paths.pidFile, { force: true });
  await rm(paths.stateFile, { force: true });
}
