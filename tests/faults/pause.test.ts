/**
 * The group coordinator's JVM paused (SIGSTOP) for longer than the session timeout, then
 * resumed: a node that is alive but answers nothing, as in a long GC pause or a hung disk. The
 * controllers fence it, its leaderships move, and it rejoins when resumed.
 */
import { describe, it } from 'vitest';
import { coordinatorOf } from '../../infra/kafka/topology.ts';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';

const SESSION_MS = 10_000;

describe('fault: the coordinator paused past the session timeout', () => {
  it('loses nothing, commits the log end, explains every duplicate, never two members on a partition', async () => {
    const result = await runScenario({
      name: 'pause', partitions: 6, records: 4_000, ratePerSecond: 100, members: 2, sessionTimeoutMs: SESSION_MS,
      fault: async (ctx) => {
        const node = await coordinatorOf(ctx.cluster.bootstrap, ctx.groupId);
        ctx.began();
        ctx.cluster.pause(node);
        await new Promise((r) => setTimeout(r, SESSION_MS + 5_000));
        ctx.cluster.resume(node);
      },
    });
    expectSurvived(result);
  });
});
