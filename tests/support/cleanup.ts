/**
 * What an integration test file leaves behind, cleaned up once its tests ran: poller
 * processes killed, in-process pollers stopped, topics deleted. Call it inside `describe`.
 */
import { afterAll } from 'vitest';
import type { CliProcess } from './cli.ts';
import type { Harness } from './harness.ts';
import { deleteTopic } from './kafka.ts';

export interface Leftovers {
  topics: string[];
  harnesses: Harness[];
  processes: CliProcess[];
}

export function cleanupAfterAll(): Leftovers {
  const left: Leftovers = { topics: [], harnesses: [], processes: [] };
  afterAll(async () => {
    for (const p of left.processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(left.harnesses.map((h) => h.stop()));
    await Promise.all(left.topics.map(deleteTopic));
  });
  return left;
}
