/**
 * The two files that say which process an instance directory runs: a pid file (the pid alone, for
 * humans and scripts) and a JSON state file (pid, address, ports, version). The local broker
 * (kafka.pid, broker.json) and the local registry (registry.pid, registry.json) both keep them.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';

export interface RecordFiles {
  pidFile: string;
  stateFile: string;
}

/** pid 0: a pid file we did not write, reported as recorded-but-dead so the caller cleans it up. */
export type Recorded<T> =
  | { kind: 'none' }
  | { kind: 'recorded'; pid: number; state: T | undefined };

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The recorded pid, and the state when `parse` accepts it and it names that same pid. */
export async function readRecorded<T extends { pid: number }>(
  files: RecordFiles,
  parse: (text: string) => T | undefined,
): Promise<Recorded<T>> {
  const pidText = await readIfExists(files.pidFile);
  if (pidText === undefined) return { kind: 'none' };
  const pid = Number(pidText.trim());
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'recorded', pid: 0, state: undefined };
  const stateText = await readIfExists(files.stateFile);
  const state = stateText === undefined ? undefined : parse(stateText);
  return { kind: 'recorded', pid, state: state?.pid === pid ? state : undefined };
}

/** The state file first, so a pid file never names a process without its state. */
export async function writeRecorded<T extends { pid: number }>(files: RecordFiles, state: T): Promise<void> {
  await writeFile(files.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  await writeFile(files.pidFile, `${state.pid}\n`);
}

/** Removes both files, but only while they still name `pid` (or a pid we did not write). */
export async function clearRecorded(files: RecordFiles, pid: number): Promise<void> {
  const current = await readRecorded<{ pid: number }>(files, () => undefined); // only the pid matters here
  if (current.kind === 'recorded' && current.pid !== pid && current.pid !== 0) return;
  await rm(files.pidFile, { force: true });
  await rm(files.stateFile, { force: true });
}
