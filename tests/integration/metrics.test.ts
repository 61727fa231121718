/**
 * `GET /metrics` against the real broker, read with a Prometheus text-format parser: the lag
 * gauge per partition is what the broker says (0 once drained; the committed offset's distance
 * to the log end mid-backlog, as `sluice lag` computes it), and the counters move by exactly
 * what the poller did, failures included.
 */
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from '../support/cleanup.ts';
import { failurePolicy, startRecorder } from '../support/harness.ts';
import { createTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';
import { scrape } from '../support/prometheus.ts';

describe('/metrics', () => {
  const left = cleanupAfterAll();
  const topicWith = async (prefix: string, partitions: number, count: number) => {
    const topic = uniqueName(prefix);
    left.topics.push(topic);
    await createTopic(topic, partitions);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ value: `v${i}`, partition: i % partitions })));
    return topic;
  };
  const drained = (group: string, topic: string) => waitFor('committed to the log end', async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd), 60_000);

  it('after draining N records: lag 0 on every partition, N received, invoked and succeeded; Prometheus names', async () => {
    const topic = await topicWith('metrics', 3, 300);
    const h = await startRecorder({ topic, batchSize: 25, httpPort: 0 });
    left.harnesses.push(h);
    await drained(h.trigger.consumerGroupId, topic);
    await waitFor('the last commit counted', async () => (await scrape(h.httpUrl!)).samples('sluice_offset_lag').every((s) => s.value === 0), 10_000);
    const m = await scrape(h.httpUrl!);
    const where = { function: 'recorder', topic, group: h.trigger.consumerGroupId };
    expect(m.samples('sluice_offset_lag', where).map((s) => [s.labels.partition, s.value]).sort()).toEqual([['0', 0], ['1', 0], ['2', 0]]);
    expect(m.sum('sluice_records_received_total', where)).toBe(300);
    expect(m.sum('sluice_records_invoked_total', where)).toBe(300);
    expect(m.sum('sluice_records_succeeded_total', where)).toBe(300);
    expect(m.sum('sluice_records_failed_total', where)).toBe(0);
    expect(m.sum('sluice_invocations_total', { ...where, outcome: 'ok' })).toBe(h.completed().length);
    expect(m.sum('sluice_invocation_duration_seconds_count', where)).toBe(h.completed().length);
    expect(m.samples('sluice_commits_total', where).every((s) => s.value >= 1)).toBe(true);
    expect(m.sum('sluice_invocations_in_flight', where)).toBe(0);
    for (const f of m.families) {
      expect(f.name).toMatch(/^sluice_[a-z_]+[a-z]$/);
      if (f.type === 'counter') expect(f.samples.every((x) => x.name.endsWith('_total'))).toBe(true);
      if (f.type === 'histogram') expect(f.name).toMatch(/_seconds$/);
    }
    console.log(`[metrics] families served: ${m.families.map((f) => f.name).join(', ')}`);
  });

  it('stopped mid-backlog and restarted: the lag gauge equals the broker lag of the committed offset', async () => {
    // A backlog neither partition can finish before the stop: a partition done before it is never
    // fetched again, and its gauge never appears (CI-40 on librdkafka, whose partitions progress unevenly).
    const topic = await topicWith('metrics-lag', 2, 2_000);
    const first = await startRecorder({ topic, batchSize: 10, concurrency: 2, env: { SLEEP_MS: '100' } });
    await waitFor('some committed', async () => (await offsets(first.trigger.consumerGroupId, topic)).every((p) => p.committed >= 20), 30_000);
    await first.stop();
    const before = await offsets(first.trigger.consumerGroupId, topic);
    const second = await startRecorder({ topic, batchSize: 10, concurrency: 2, consumerGroupId: first.trigger.consumerGroupId, httpPort: 0, env: { SLEEP_MS: '20000' } });
    left.harnesses.push(second);
    const changes: string[] = [];
    second.events.on('group.rebalanced', (e) => changes.push(`${Date.now()} rebalanced ${JSON.stringify(e.assignment)}${e.revoked ? ` revoked ${e.revoked}` : ''}`));
    second.events.on('poller.batch_received', (e) => changes.push(`${Date.now()} fetched ${e.partition}@${e.firstOffset}`));
    // The first chunk of each partition is in flight for 20 s: nothing new is committed meanwhile.
    await waitFor('both partitions fetched', async () => (await scrape(second.httpUrl!)).samples('sluice_offset_lag').length === 2, 30_000).catch((e: unknown) => {
      // Say what the member was given and fetched (CI-27 timed out here once on librdkafka; it did not recur in 2 runs here).
      throw new Error(`${(e as Error).message}\ncommitted at the stop ${JSON.stringify(before)}\nfirst's joins ${JSON.stringify(first.joins)}\nsecond's joins ${JSON.stringify(second.joins)}\n${changes.join('\n')}`);
    });
    const m = await scrape(second.httpUrl!);
    const gauge = Object.fromEntries(m.samples('sluice_offset_lag').map((s) => [Number(s.labels.partition), s.value]));
    const broker = Object.fromEntries(before.map((p) => [p.partition, p.logEnd - p.committed]));
    console.log(`[metrics] lag gauge ${JSON.stringify(gauge)}, broker ${JSON.stringify(broker)}`);
    expect(gauge).toEqual(broker);
  });

  it('a poison record with one retry into a destination: failed 2, retries 1, sent 1, errors 2, the rest succeeded', async () => {
    const topic = await topicWith('metrics-fail', 1, 20);
    const failed = `${topic}-failed`;
    left.topics.push(failed);
    await createTopic(failed, 1);
    const h = await startRecorder({
      topic, batchSize: 1, httpPort: 0, env: { POISON_OFFSETS: '5' },
      failure: failurePolicy({ maximumRetryAttempts: 1, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }),
    });
    left.harnesses.push(h);
    await drained(h.trigger.consumerGroupId, topic);
    await waitFor('the last commit counted', async () => (await scrape(h.httpUrl!)).sum('sluice_offset_lag') === 0, 10_000);
    const m = await scrape(h.httpUrl!);
    const where = { topic, partition: '0' };
    expect(m.sum('sluice_records_received_total', where)).toBeGreaterThanOrEqual(20);
    expect(m.sum('sluice_records_failed_total', where)).toBe(2);
    expect(m.sum('sluice_retries_total', where)).toBe(1);
    expect(m.sum('sluice_destination_records_total', { ...where, reason: 'RetryAttemptsExhausted' })).toBe(1);
    expect(m.sum('sluice_destination_send_failures_total', where)).toBe(0);
    expect(m.sum('sluice_records_succeeded_total', where)).toBe(19);
    expect(m.sum('sluice_invocations_total', { topic, outcome: 'error' })).toBe(2);
    expect(m.sum('sluice_invocations_total', { topic, outcome: 'ok' })).toBe(19);
  });
});
