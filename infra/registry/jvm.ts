/**
 * The registry's OS process: spawned detached in its own process group (it outlives the process
 * that started it, like the Kafka broker), its console in the instance's registry.log; and the
 * check that a recorded pid really is this instance's registry.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { commandLine, isAlive } from '../kafka/process.ts';
import { instanceMarker } from './config.ts';

export interface SpawnedRegistry {
  pid: number;
  /** Why the JVM is gone, once it is (undefined while it runs). */
  exited(): string | undefined;
}

export function spawnRegistry(p: { java: string; args: string[]; logFile: string; cwd: string }): SpawnedRegistry {
  const out = openSync(p.logFile, 'w');
  let exited: string | undefined;
  try {
    const child = spawn(p.java, p.args, { cwd: p.cwd, detached: true, stdio: ['ignore', out, out] });
    child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
    child.once('error', (err) => (exited = `could not be spawned: ${err.message}`));
    child.unref();
    if (child.pid === undefined) throw new Error(`Could not spawn ${p.java} for the schema registry; check SLUICE_REGISTRY_JAVA_HOME.`);
    return { pid: child.pid, exited: () => exited };
  } finally {
    closeSync(out);
  }
}

/**
 * True when pid is alive and runs quarkus-run.jar for this instance directory, so a pid reused
 * by an unrelated process after a reboot is never mistaken for (or killed as) our registry.
 */
export async function isOurRegistry(pid: number, instanceDir: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const cmd = await commandLine(pid);
  if (cmd === undefined) return true; // no way to read it here: the liveness check alone
  if (cmd.trim() === '') return false; // a zombie or an exiting process has an empty cmdline
  return cmd.includes('quarkus-run.jar') && cmd.includes(`${instanceMarker(instanceDir)} `);
}
