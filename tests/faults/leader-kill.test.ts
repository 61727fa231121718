/**
 * The leader of a busy partition is killed -9 mid-stream, then restarted on its data. The
 * partition's leadership moves to an in-sync follower; consuming resumes from it.
 */
import { describe, expect, it } from 'vitest';
import { leaderOf } from '../../infra/kafka/topology.ts';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';

describe('fault: a partition leader killed -9', () => {
  it.each([1, 4])('parallelizationFactor %i: loses nothing, commits the log end, explains every duplicate, never two members on a partition', async (parallelizationFactor) => {
    const result = await runScenario({
      parallelizationFactor,
      name: 'leader-kill', partitions: 6, records: 3_000, ratePerSecond: 100, members: 2,
      fault: async (ctx) => {
        const leader = await leaderOf(ctx.cluster.bootstrap, ctx.topic, 0);
        const before = ctx.processed();
        ctx.began();
        await ctx.cluster.kill(leader);
        await ctx.waitProcessed(before + 500);
        await ctx.cluster.start(leader);
      },
    });
    expectSurvived(result);
  });
});
