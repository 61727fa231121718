/**
 * A rolling restart under queue mode, as an operator upgrades a cluster: each node in turn stopped
 * cleanly and started again, the next only once every replica is back in sync. Partition leaders,
 * the share group's coordinator and its share state all move, each more than once.
 */
import { describe, it } from 'vitest';
import { runQueueScenario } from '../support/queue-scenario.ts';
import { expectQueueSurvived } from './expect.ts';

describe('fault (queue mode): a rolling restart of all three nodes', () => {
  it('loses nothing, never delivers an accepted record again, explains every duplicate', async () => {
    const result = await runQueueScenario({
      name: 'rolling-restart', partitions: 3, records: 4_000, ratePerSecond: 100, members: 2,
      fault: async (ctx) => {
        for (const n of ctx.cluster.nodes) {
          await ctx.cluster.stop(n.id);
          await ctx.cluster.start(n.id);
          await ctx.cluster.waitHealthy([ctx.topic], 120_000);
        }
      },
    });
    expectQueueSurvived(result);
  });
});
