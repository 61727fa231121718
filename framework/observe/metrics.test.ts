import { describe, expect, it } from 'vitest';
import { Instrumentation } from './events.ts';
import { PollerMetrics } from './metrics.ts';

/** Sums a metric's values (a histogram's: its `_count`) over the series whose labels include `labels`. */
async function reader(metrics: PollerMetrics) {
  const all = await metrics.registry.getMetricsAsJSON();
  return (name: string, labels: Record<string, string> = {}) => {
    const metric = all.find((x) => x.name === name)!;
    const histogram = String(metric.type) === 'histogram';
    return metric.values
      .filter((v) => !histogram || (v as { metricName?: string }).metricName === `${name}_count`)
      .filter((v) => Object.entries(labels).every(([k, x]) => String(v.labels[k]) === x))
      .reduce((n, v) => n + v.value, 0);
  };
}

describe('PollerMetrics', () => {
  const base = { functionName: 'orders', topic: 'orders', partition: 1 };
  const chunk = { ...base, count: 10, firstOffset: 0, lastOffset: 9, attempt: 1, bytes: 100, fetchedAt: 0 };

  it('counts queue mode\'s acquisitions, redeliveries and acknowledgements by type', async () => {
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    events.emit('queue.acquired', { ...base, count: 10, redelivered: 3, leader: 1, ranges: [{ from: 0, until: 9 }] });
    events.emit('queue.acknowledged', { ...base, type: 'accept', count: 7 });
    events.emit('queue.acknowledged', { ...base, type: 'release', count: 2 });
    events.emit('queue.acknowledged', { ...base, type: 'reject', count: 1 });
    const value = await reader(metrics);
    expect(value('sluice_queue_records_acquired_total', { partition: '1', group: 'g' })).toBe(10);
    expect(value('sluice_queue_redeliveries_total')).toBe(3);
    expect(value('sluice_queue_acknowledgements_total', { type: 'accept' })).toBe(7);
    expect(value('sluice_queue_acknowledgements_total', { type: 'release' })).toBe(2);
    expect(value('sluice_queue_acknowledgements_total', { type: 'reject' })).toBe(1);
    // 10 acquired, 10 acknowledged: none left in hand.
    expect(value('sluice_queue_records_in_hand', { partition: '1' })).toBe(0);
    events.emit('queue.acquired', { ...base, count: 4, redelivered: 0, leader: 1, ranges: [{ from: 10, until: 13 }] });
    events.emit('queue.acknowledged', { ...base, type: 'accept', count: 1 });
    expect((await reader(metrics))('sluice_queue_records_in_hand', { partition: '1' })).toBe(3);
  });

  it('shows a queue trigger\'s share-group lag per partition, and its whole backlog as the trigger\'s OffsetLag', async () => {
    const events = new Instrumentation();
    const triggers = [{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }, { functionName: 'audit', topic: 'audit', consumerGroupId: 'a' }];
    const metrics = new PollerMetrics(triggers, events);
    events.emit('poller.batch_received', { functionName: 'audit', topic: 'audit', partition: 0, count: 5, firstOffset: 0, lastOffset: 4, lag: 5, highWatermark: 12 });
    events.emit('queue.lag', { functionName: 'orders', topic: 'orders', groupId: 'g', partitions: [{ partition: 0, lag: 7 }, { partition: 1, lag: 30 }, { partition: 2, lag: 0 }] });
    let value = await reader(metrics);
    expect(value('sluice_share_group_lag', { partition: '1', group: 'g' })).toBe(30);
    expect(value('sluice_share_group_lag', { topic: 'orders' })).toBe(37);
    // Any poller takes records of any partition: the backlog is the sum; a stream trigger keeps its largest partition's lag.
    expect(metrics.snapshot().map((t) => [t.functionName, t.offsetLag])).toEqual([['orders', 37], ['audit', 12]]);

    events.emit('queue.lag', { functionName: 'orders', topic: 'orders', groupId: 'g', partitions: [{ partition: 0, lag: 0 }, { partition: 1, lag: 2 }, { partition: 2, lag: 0 }] });
    value = await reader(metrics);
    expect(value('sluice_share_group_lag', { topic: 'orders' })).toBe(2);
    expect(metrics.snapshot()[0]!.offsetLag).toBe(2);
  });

  it('derives lag from the fetch high watermark and the committed offset, and counts by outcome', async () => {
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    events.emit('poller.batch_received', { ...base, count: 10, firstOffset: 40, lastOffset: 49, lag: 50, highWatermark: 100 });
    let value = await reader(metrics);
    expect(value('sluice_offset_lag', { partition: '1', group: 'g' })).toBe(60); // nothing committed yet: from the fetch position

    events.emit('poller.chunk_start', chunk);
    events.emit('poller.chunk_end', { ...chunk, ok: false, durationMs: 1500, error: 'boom', kind: 'timeout' });
    events.emit('poller.chunk_start', chunk);
    events.emit('poller.chunk_end', { ...chunk, ok: false, durationMs: 5, error: 'throttled', kind: 'not-invoked' });
    events.emit('poller.chunk_start', chunk);
    events.emit('poller.chunk_end', { ...chunk, ok: true, durationMs: 20 });
    events.emit('poller.commit', { ...base, groupId: 'g', offset: 50, durationMs: 3 });
    value = await reader(metrics);
    expect(value('sluice_offset_lag', { partition: '1' })).toBe(50);
    expect(value('sluice_records_invoked_total')).toBe(30);
    expect(value('sluice_records_failed_total')).toBe(20);
    expect(value('sluice_records_succeeded_total')).toBe(10);
    expect(value('sluice_invocations_total', { outcome: 'timeout' })).toBe(1);
    expect(value('sluice_invocations_total', { outcome: 'throttled' })).toBe(1);
    expect(value('sluice_invocations_total', { outcome: 'ok' })).toBe(1);
    expect(value('sluice_invocations_in_flight')).toBe(0);
    expect(value('sluice_invocation_duration_seconds')).toBe(3);
    expect(value('sluice_commit_latency_seconds')).toBe(1);

    metrics.close();
    events.emit('poller.chunk_start', chunk);
    value = await reader(metrics);
    expect(value('sluice_records_invoked_total')).toBe(30); // closed: no longer listening
  });

  it('drops the lag of a partition assigned away and starts it again from its fetch position when it comes back', async () => {
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    const batch = (partition: number, firstOffset: number, highWatermark: number) =>
      events.emit('poller.batch_received', { functionName: 'orders', topic: 'orders', partition, count: 1, firstOffset, lastOffset: firstOffset, lag: 0, highWatermark });
    events.emit('group.join', { groupId: 'g', memberId: 'm', isLeader: true, assignment: { orders: [0, 1] }, durationMs: 1 });
    batch(0, 10, 30);
    batch(1, 0, 5);
    events.emit('poller.commit', { functionName: 'orders', groupId: 'g', topic: 'orders', partition: 1, offset: 5, durationMs: 1 });
    expect(metrics.snapshot()).toEqual([{ functionName: 'orders', topic: 'orders', group: 'g', invocations: 0, errors: 0, throttles: 0, offsetLag: 20 }]);

    events.emit('group.rebalanced', { groupId: 'g', memberId: 'm', durationMs: 5, assignment: { orders: [1] } });
    let value = await reader(metrics);
    expect(value('sluice_offset_lag', { partition: '0' })).toBe(0); // no series: another member reports it
    expect((await metrics.text()).match(/^sluice_offset_lag\{.*$/gm)).toEqual([expect.stringContaining('partition="1"')]);
    expect(metrics.snapshot()[0]!.offsetLag).toBe(0);

    // A commit of partition 0 answered after it went away: not its lag any more.
    events.emit('poller.commit', { functionName: 'orders', groupId: 'g', topic: 'orders', partition: 0, offset: 12, durationMs: 1 });
    expect((await metrics.text()).match(/^sluice_offset_lag\{.*$/gm)).toHaveLength(1);
    // Back, after another member committed up to 28: the lag is from there, not from the old 10 or 12.
    events.emit('group.rebalanced', { groupId: 'g', memberId: 'm', durationMs: 5, assignment: { orders: [0, 1] } });
    batch(0, 28, 31);
    value = await reader(metrics);
    expect(value('sluice_offset_lag', { partition: '0' })).toBe(3);
    expect(metrics.snapshot()[0]!.offsetLag).toBe(3);
  });

  it('counts invocations, errors and throttles per trigger for the snapshot', () => {
    const events = new Instrumentation();
    const metrics = new PollerMetrics([{ functionName: 'orders', topic: 'orders', consumerGroupId: 'g' }], events);
    for (const [ok, kind] of [[true, undefined], [false, 'error'], [false, 'timeout'], [false, 'not-invoked'], [true, undefined]] as const) {
      events.emit('poller.chunk_end', { ...chunk, ok, durationMs: 1, ...(kind ? { kind, error: 'x' } : {}) });
    }
    expect(metrics.snapshot()).toEqual([{ functionName: 'orders', topic: 'orders', group: 'g', invocations: 4, errors: 2, throttles: 1, offsetLag: 0 }]);
  });
});
