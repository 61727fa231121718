/**
 * The topic's partition count is raised from 3 to 6 while it is consumed: the new partitions
 * are assigned (Sluice refreshes metadata every 30 s) and read from their first record.
 */
import { describe, expect, it } from 'vitest';
import { withAdmin } from '../support/kafka.ts';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';

describe('fault: partitions added while consuming', () => {
  it('consumes the new partitions from their start: nothing skipped, nothing lost', async () => {
    const result = await runScenario({
      name: 'add-partitions', partitions: 3, records: 4_000, ratePerSecond: 100, members: 2,
      fault: async (ctx) => {
        ctx.began();
        await withAdmin((a) => a.createPartitions(ctx.topic, 6));
      },
    });
    expect(result.produced).toBe(4_000);
    expectSurvived(result);
  });
});
