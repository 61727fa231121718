/**
 * The files that say which broker an instance directory runs: kafka.pid (the pid alone, for
 * humans and scripts) and broker.json (pid, bootstrap, ports, version).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { parseBrokerState, type BrokerState, type InstancePaths } from './config.ts';

export type RecordedBroker =
  | { kind: 'none' }
  | { kind: 'recorded'; pid: number; state: BrokerState | undefined };

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function readRecordedBroker(paths: InstancePaths): Promise<RecordedBroker> {
  const pidText = await readIfExists(paths.pidFile);
  if (pidText === undefined) return { kind: 'none' };
  const pid = Number(pidText.trim());
  if (!Number.isInteger(pid) || pid <= 0) {
    // Not a pid we wrote: report it as recorded-but-dead so the caller cleans it up.
    return { kind: 'recorded', pid: 0, state: undefined };
  }
  const stateText = await readIfExists(paths.stateFile);
  const state = stateText === undefined ? undefined : parseBrokerState(stateText);
  return { kind: 'recorded', pid, state: state?.pid === pid ? state : undefined };
}

export async function writeRecordedBroker(paths: InstancePaths, state: BrokerState): Promise<void> {
  await writeFile(paths.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  await writeFile(paths.pidFile, `${state.pid}\n`);
}

/** Removes kafka.pid and broker.json, but only while they still name `pid`. */
export async function clearRecordedBroker(paths: InstancePaths, pid: number): Promise<void> {
  const current = await readRecordedBroker(paths);
  if (current.kind === 'recorded' && current.pid !== pid && current.pid !== 0) return;
  await rm(paths.pidFile, { force: true });
  await rm(paths.stateFile, { force: true });
}
