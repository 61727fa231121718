/**
 * Spawns one Kafka node's JVM detached in its own process group (it outlives the process that
 * started it), with its output in the instance's kafka.out. Shared by the single broker and the
 * cluster's nodes; the caller records the pid and waits for readiness.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import type { InstancePaths } from './config.ts';

export interface SpawnedNode {
  pid: number;
  /** Why the JVM is gone, once it is (undefined while it runs). */
  exited(): string | undefined;
}

/** `heap`: -Xms/-Xmx, e.g. ['256m', '1g']. */
export function spawnKafka(p: { java: string; libDir: string; paths: InstancePaths; cwd: string; heap: [string, string] }): SpawnedNode {
  const out = openSync(p.paths.outFile, 'w');
  let exited: string | undefined;
  try {
    const child = spawn(p.java, [
      `-Xms${p.heap[0]}`, `-Xmx${p.heap[1]}`, '-XX:+UseG1GC', '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${p.paths.log4jProperties}`,
      '-cp', path.join(p.libDir, '*'), 'kafka.Kafka', p.paths.serverProperties,
    ], { cwd: p.cwd, detached: true, stdio: ['ignore', out, out] });
    child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
    child.once('error', (err) => (exited = `could not be spawned: ${err.message}`));
    child.unref();
    if (child.pid === undefined) throw new Error(`Could not spawn ${p.java} for Kafka; check JAVA_HOME and PATH.`);
    return { pid: child.pid, exited: () => exited };
  } finally {
    closeSync(out);
  }
}
