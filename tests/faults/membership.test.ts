/**
 * Members 1 -> 3 -> 1 while a node restarts: two members join, a node is stopped and started
 * again, then the two leave cleanly, so partitions move between members during the fault.
 */
import { describe, it } from 'vitest';
import { leaderOf } from '../../infra/kafka/topology.ts';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';

describe('fault: members 1 -> 3 -> 1 while a node restarts', () => {
  it.each([1, 4])('parallelizationFactor %i: loses nothing, commits the log end, explains every duplicate, never two members on a partition', async (parallelizationFactor) => {
    const result = await runScenario({
      parallelizationFactor,
      name: 'membership', partitions: 6, records: 5_000, ratePerSecond: 100, members: 1, handlerMs: 100,
      fault: async (ctx) => {
        ctx.began();
        await ctx.addMember();
        await ctx.addMember();
        const node = await leaderOf(ctx.cluster.bootstrap, ctx.topic, 1);
        await ctx.cluster.stop(node);
        await ctx.waitProcessed(ctx.processed() + 300);
        await ctx.cluster.start(node);
        await ctx.removeMember();
        await ctx.removeMember();
      },
    });
    expectSurvived(result);
  });
});
