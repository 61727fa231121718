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
});
