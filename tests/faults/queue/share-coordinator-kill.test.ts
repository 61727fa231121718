/**
 * The broker keeping a partition's share state (its share coordinator: the leader of the
 * __share_group_state partition FindCoordinator names for it) killed -9 under load, then started
 * again on its data. The state moves to another replica; acknowledgements in flight are refused or
 * lost with their sessions, and their records delivered again: 0 lost, none delivered again after
 * the broker applied its acceptance, every duplicate explained.
 */
import { describe, it } from 'vitest';
import { runQueueScenario } from '../support/queue-scenario.ts';
import { expectQueueSurvived } from './expect.ts';

describe('fault (queue mode): the share coordinator killed -9', () => {
  it('loses nothing, never delivers an accepted record again, explains every duplicate', async () => {
    const result = await runQueueScenario({
      name: 'share-coordinator-kill', partitions: 3, records: 3_000, ratePerSecond: 100, members: 2,
      fault: async (ctx) => {
        const node = await ctx.shareCoordinatorOf(0);
        console.log(`[fault:queue-share-coordinator-kill] partition 0's share state is kept by node ${node}; the group's coordinator is node ${await ctx.groupCoordinator()}`);
        const before = ctx.processed();
        await ctx.cluster.kill(node);
        await ctx.waitProcessed(before + 500);
        await ctx.cluster.start(node);
      },
    });
    expectQueueSurvived(result);
  });
});
