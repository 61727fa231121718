/**
 * The broker's OS process: is it alive, is it really our Kafka, and stopping its process group
 * (SIGTERM, bounded wait, then SIGKILL). The local schema registry (infra/registry) uses the same.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCapture } from './run.ts';

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false; // kill(0|-n) would address process groups
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process's command line, or undefined when the platform offers no way to read it. */
export async function commandLine(pid: number): Promise<string | undefined> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    const ps = await runCapture('ps', ['-ww', '-o', 'command=', '-p', String(pid)], { timeoutMs: 5_000 });
    return ps.code === 0 ? ps.stdout : undefined;
  } catch {
    return undefined; // no /proc and no ps: fall back to the liveness check alone
  }
}

/**
 * True when pid is alive and runs kafka.Kafka with this instance's server.properties, so a pid
 * reused by an unrelated process after a reboot is never mistaken for (or killed as) our broker.
 */
export async function isOurBroker(pid: number, serverProperties: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const cmd = await commandLine(pid);
  if (cmd === undefined) return true;
  if (cmd.trim() === '') return false; // a zombie or an exiting process has an empty cmdline
  return cmd.includes('kafka.Kafka') && cmd.includes(serverProperties);
}

/** Sends sig to the process group led by pid; false when the group no longer exists. */
export function signalGroup(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, sig);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
  return true;
}

/** SIGTERM the group, wait up to graceMs for a clean shutdown, then SIGKILL. `what` names it in messages. */
export async function stopProcessGroup(pid: number, graceMs: number, log: (line: string) => void, what = 'Kafka'): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  if (await waitForExit(pid, graceMs)) return;
  log(`${what} (pid ${pid}) did not stop within ${Math.round(graceMs / 1000)} s of SIGTERM; sending SIGKILL.`);
  signalGroup(pid, 'SIGKILL');
  if (!(await waitForExit(pid, 10_000))) {
    throw new Error(`${what} (pid ${pid}) is still running after SIGKILL; stop it by hand (kill -9 ${pid}).`);
  }
}
