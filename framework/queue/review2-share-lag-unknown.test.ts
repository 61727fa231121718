/**
 * Review 2 (4b1e4d9): share-lag.ts promises that a reading it cannot make leaves
 * sluice_share_group_lag and OffsetLag at their last value. But a reading in which the broker
 * answers lag -1 (not known) for a partition with state is reported as a successful reading
 * without that partition (queue-member.ts drops lag null): every such partition counts 0 in the
 * sum, and when all are unknown OffsetLag drops to 0 — the scaling policy scales in on a backlog
 * it was just told about.
 */
import { describe, expect, it } from 'vitest';
import { backlogOf } from './share-lag.ts';
import { readShareGroup } from '../kafka/share/share-group.ts';
import { shareGroupReading } from '../../tests/support/scripted-share-broker.ts';
import { Instrumentation } from '../observe/events.ts';
import { PollerMetrics } from '../observe/metrics.ts';

describe('Review 2 (4b1e4d9): a reading whose partitions\' lag the broker does not know (-1)', () => {
  it('leaves OffsetLag at its last value instead of dropping it to 0', async () => {
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    const logs = [{ partition: 0, logStart: 0, logEnd: 5_000 }, { partition: 1, logStart: 0, logEnd: 5_000 }];
    // The queue member's reading, as queue-member.ts makes it (backlogOf).
    const reading = async (lags: number[]) => {
      const offsets = { errorCode: 0, errorMessage: null, partitions: lags.map((lag, partition) => ({ partition, startOffset: 1_000, lag, errorCode: 0, errorMessage: null })) };
      const { partitions } = await readShareGroup(shareGroupReading(offsets), 'g', 'orders', logs, 'earliest');
      events.emit('queue.lag', { functionName: 'orders', topic: 'orders', groupId: 'g', partitions: backlogOf(partitions) });
    };
    await reading([4_000, 4_000]);
    expect(metrics.snapshot()[0]!.offsetLag).toBe(8_000);
    await reading([-1, -1]); // the same backlog, its lag not known this time
    expect(metrics.snapshot()[0]!.offsetLag).toBe(8_000);
  });
});
