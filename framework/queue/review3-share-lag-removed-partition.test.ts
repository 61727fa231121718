/**
 * Review 3 (6c55667): OffsetLag now keeps each partition's last known lag, so that a reading which
 * could not read a partition does not drop it. But the queue.lag event cannot tell "not read this
 * time" from "no longer exists" (queue-member.ts drops lag-null partitions, readShareGroup only lists
 * the partitions the topic has now): a topic deleted and made again with fewer partitions keeps the
 * removed partition's last backlog in OffsetLag forever — the service scales on records that are gone.
 */
import { describe, expect, it } from 'vitest';
import { backlogOf } from './share-lag.ts';
import { readShareGroup } from '../kafka/share/share-group.ts';
import { shareGroupReading } from '../../tests/support/scripted-share-broker.ts';
import { Instrumentation } from '../observe/events.ts';
import { PollerMetrics } from '../observe/metrics.ts';

describe('Review 3 (6c55667): a share group whose topic now has fewer partitions', () => {
  it('drops the removed partition\'s backlog from OffsetLag instead of keeping it forever', async () => {
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    // The queue member's reading, as queue-member.ts makes it (backlogOf).
    const reading = async (logs: Array<{ partition: number; logStart: number; logEnd: number }>, lags: number[]) => {
      const offsets = { errorCode: 0, errorMessage: null, partitions: lags.map((lag, partition) => ({ partition, startOffset: 0, lag, errorCode: 0, errorMessage: null })) };
      const { partitions } = await readShareGroup(shareGroupReading(offsets), 'g', 'orders', logs, 'earliest');
      events.emit('queue.lag', { functionName: 'orders', topic: 'orders', groupId: 'g', partitions: backlogOf(partitions) });
    };
    await reading([0, 1, 2].map((partition) => ({ partition, logStart: 0, logEnd: 9_000 })), [0, 0, 9_000]);
    expect(metrics.snapshot()[0]!.offsetLag).toBe(9_000);
    // The topic deleted and made again with 2 partitions, everything read: partition 2 is gone.
    for (let i = 0; i < 5; i++) await reading([0, 1].map((partition) => ({ partition, logStart: 0, logEnd: 10 })), [0, 0]);
    expect(metrics.snapshot()[0]!.offsetLag).toBe(0);
  });
});
