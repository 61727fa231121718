/**
 * The group coordinator (the leader of the group's __consumer_offsets partition) is killed -9
 * while chunks are in flight, then restarted. Commits in flight to it fail; the group finds the
 * new coordinator and goes on.
 */
import { describe, it } from 'vitest';
import { coordinatorOf } from '../../infra/kafka/topology.ts';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';

describe('fault: the group coordinator killed -9', () => {
  it.each([1, 4])('parallelizationFactor %i: loses nothing, commits the log end, explains every duplicate, never two members on a partition', async (parallelizationFactor) => {
    const result = await runScenario({
      parallelizationFactor,
      name: 'coordinator-kill', partitions: 6, records: 3_000, ratePerSecond: 100, members: 2, handlerMs: 300,
      fault: async (ctx) => {
        const coordinator = await coordinatorOf(ctx.cluster.bootstrap, ctx.groupId);
        const before = ctx.processed();
        ctx.began();
        await ctx.cluster.kill(coordinator);
        await ctx.waitProcessed(before + 500);
        await ctx.cluster.start(coordinator);
      },
    });
    expectSurvived(result);
  });
});
