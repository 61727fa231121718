/**
 * Review 2 (4b1e4d9): the share group's backlog feeds OffsetLag, which the deployed service scales
 * on. readShareGroup (as the queue member's reader calls it) counts a partition whose offsets the
 * broker could not read (a per-partition error in DescribeShareGroupOffsets, e.g. the share
 * coordinator's state partition loading: COORDINATOR_LOAD_IN_PROGRESS, 14) as a partition with no
 * state yet: its whole log, from logStart, is "backlog". The reader's own contract is that a
 * reading it cannot make keeps the last value (lag null, skipped), not that it reports the log.
 */
import { describe, expect, it } from 'vitest';
import { backlogOf } from './share-lag.ts';
import { readShareGroup } from '../kafka/share/share-group.ts';
import { shareGroupReading } from '../../tests/support/scripted-share-broker.ts';
import { Instrumentation } from '../observe/events.ts';
import { PollerMetrics } from '../observe/metrics.ts';

describe('Review 2 (4b1e4d9): a partition whose share-group offsets the broker could not read', () => {
  it('is not counted as its whole log in the backlog (and so in OffsetLag)', async () => {
    // Partition 0: 3 records not acknowledged. Partition 1: fully consumed long ago (start offset 1,000,000), but its state read failed this time.
    const offsets = {
      errorCode: 0, errorMessage: null,
      partitions: [
        { partition: 0, startOffset: 997, lag: 3, errorCode: 0, errorMessage: null },
        { partition: 1, startOffset: -1, lag: -1, errorCode: 14, errorMessage: 'The coordinator is loading and hence can\'t process requests.' },
      ],
    };
    const logs = [{ partition: 0, logStart: 0, logEnd: 1_000 }, { partition: 1, logStart: 0, logEnd: 1_000_000 }];
    const { partitions } = await readShareGroup(shareGroupReading(offsets), 'g', 'orders', logs, 'earliest');
    // What the queue member reports (queue-member.ts, backlogOf: a partition with lag null listed as not known) and the trigger's OffsetLag from it.
    const reported = backlogOf(partitions);
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    events.emit('queue.lag', { functionName: 'orders', topic: 'orders', groupId: 'g', partitions: reported });
    expect({ partition1: partitions[1]!.lag, offsetLag: metrics.snapshot()[0]!.offsetLag }).toEqual({ partition1: null, offsetLag: 3 });
  });
});
