/**
 * A rolling restart, as an operator upgrades a cluster: each node in turn stopped cleanly,
 * started again on its data, and the next one only once every replica is back in sync.
 */
import { describe, it } from 'vitest';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';

describe('fault: a rolling restart of all three nodes', () => {
  it.each([1, 4])('parallelizationFactor %i: loses nothing, commits the log end, explains every duplicate, never two members on a partition', async (parallelizationFactor) => {
    const result = await runScenario({
      parallelizationFactor,
      name: 'rolling-restart', partitions: 6, records: 5_000, ratePerSecond: 100, members: 2,
      fault: async (ctx) => {
        ctx.began();
        for (const n of ctx.cluster.nodes) {
          await ctx.cluster.stop(n.id);
          await ctx.cluster.start(n.id);
          await ctx.cluster.waitHealthy([ctx.topic], 120_000);
        }
      },
    });
    expectSurvived(result);
  });
});
