/**
 * parallelizationFactor on a real broker (issue 28): up to N chunks of one partition at once,
 * each key in order, exact commits with the done ranges in the commit's metadata, a poison
 * record that holds only its key, and a new owner that skips what the metadata marks done.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readStatus } from '../../framework/cli/lag-read.ts';
import { formatStatus, type TriggerStatus } from '../../framework/cli/status-report.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { DEFAULT_METADATA_MAX_BYTES, decodeMetadata, windowFor } from '../../framework/parallel/commit-metadata.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, readTopic, testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { checkKeyOrder, committedMetadata, recordIntervals, type Interval } from '../support/parallel-oracle.ts';

const keyFor = (i: number, keys: number) => (i % 10 === 9 ? null : `k${i % keys}`);

describe('parallelizationFactor', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });

  const setup = async (prefix: string, count: number, keys: number) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ key: keyFor(i, keys), value: `v${i}`, partition: 0 })));
    return topic;
  };
  const committed = async (h: Harness, topic: string) => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed;

  it('runs up to 10 chunks of one partition at once, each key in offset order, and commits every record', async () => {
    const count = 600;
    const topic = await setup('pf-order', count, 30);
    const h = await startRecorder({ topic, batchSize: 5, parallelizationFactor: 10, env: { SLEEP_MS: '30', FAIL_AT_OFFSET: '57', FAIL_TIMES: '2' } });
    harnesses.push(h);
    const spans = recordIntervals(h.events);
    await waitFor('all committed', async () => (await committed(h, topic)) === count, 90_000);

    const seen = h.seen();
    const report = checkKeyOrder(seen, spans);
    const okOffsets = new Set(seen.filter((s) => spans.get(s.requestId)?.ok).flatMap(recordsOf).map((r) => r.offset));
    console.log(`[parallel order] ${seen.length} invocations, ${report.keys} keys (null included), at most ${report.maxInFlight} at once, ${report.retried} retried, overlaps ${report.overlaps.length}, out of order ${report.outOfOrder.length}`);
    expect(report.overlaps).toEqual([]);
    expect(report.outOfOrder).toEqual([]);
    expect(report.retried).toBe(2); // the chunk with offset 57 failed twice, then succeeded
    expect(okOffsets.size).toBe(count); // 0 lost
    expect(report.maxInFlight).toBeGreaterThanOrEqual(5);
    expect(report.maxInFlight).toBeLessThanOrEqual(10);
    // Everything is done: the last commit carries no metadata.
    expect(await committedMetadata(h.trigger.consumerGroupId, topic, 0)).toEqual({ offset: count, metadata: null });
  });

  it('holds only the poison key; the commit metadata carries what is done beyond it, and a new member skips exactly that', async () => {
    const count = 200;
    const keys = 20;
    const topic = await setup('pf-poison', count, keys);
    const groupId = uniqueName('group');
    const poisonKey = keyFor(30, keys)!;
    // Bisection narrows the failing chunk down to the poison record, so that it holds its key alone.
    const failure = failurePolicy({ bisectBatchOnFunctionError: true });
    const first = await startRecorder({ topic, consumerGroupId: groupId, batchSize: 5, parallelizationFactor: 10, failure, env: { POISON_OFFSETS: '30' } });
    harnesses.push(first);
    const later = Array.from({ length: count }, (_, i) => i).filter((i) => i >= 30 && keyFor(i, keys) === poisonKey);
    const others = Array.from({ length: count }, (_, i) => i).filter((i) => !later.includes(i));
    const okOf = (h: Harness) => new Set(h.seen().filter((s) => h.completed().includes(s.requestId)).flatMap(recordsOf).map((r) => r.offset));
    await waitFor('every other key done', () => others.every((o) => okOf(first).has(o)), 60_000);
    await waitFor('committed at the poison record', async () => {
      const c = await committedMetadata(groupId, topic, 0);
      const d = decodeMetadata(c.metadata, c.offset);
      return c.offset === 30 && d.kind === 'done' && d.ranges.reduce((n, r) => n + r.until - r.from + 1, 0) === count - 31 - (later.length - 1);
    }, 30_000);
    const commit = await committedMetadata(groupId, topic, 0);
    console.log(`[parallel poison] committed ${commit.offset} with ${commit.metadata!.length} characters of metadata (${commit.metadata}); the poison key's ${later.length} records wait`);
    // Nothing of the poison key after it ran while it failed: chunks are formed by key, so its later
    // records were in the failing chunk with it (and in halves of it), but none ran successfully.
    expect([...okOf(first)].filter((o) => later.includes(o))).toEqual([]);
    await first.stop();
    harnesses.splice(harnesses.indexOf(first), 1);

    // A new member of the group, the handler fixed: it invokes the held key's records, and nothing the metadata marks done.
    const second = await startRecorder({ topic, consumerGroupId: groupId, batchSize: 5, parallelizationFactor: 10 });
    harnesses.push(second);
    await waitFor('all committed', async () => (await committed(second, topic)) === count, 60_000);
    const invoked = second.seen().flatMap(recordsOf).map((r) => r.offset).sort((a, b) => a - b);
    console.log(`[parallel poison] the new member invoked ${invoked.join(',')}`);
    expect(invoked).toEqual(later);
  });

  it('ordering: unordered runs a topic without keys many at once (key ordering runs it one at a time), and a failing record holds only itself', async () => {
    const count = 300;
    const topic = uniqueName('pf-keyless');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ key: null, value: `v${i}`, partition: 0 })));
    const run = async (ordering: 'key' | 'unordered') => {
      const h = await startRecorder({ topic, batchSize: 5, parallelizationFactor: 10, ordering: ordering === 'unordered' ? 'unordered' : undefined, failure: failurePolicy({ bisectBatchOnFunctionError: true }), env: { SLEEP_MS: '30', FAIL_AT_OFFSET: '57', FAIL_TIMES: '3' } });
      harnesses.push(h);
      const spans = recordIntervals(h.events);
      await waitFor('all committed', async () => (await committed(h, topic)) === count, 90_000);
      const seen = h.seen();
      const report = checkKeyOrder(seen, spans);
      const ok = new Set(seen.filter((s) => spans.get(s.requestId)?.ok).flatMap(recordsOf).map((r) => r.offset));
      // What ran past offset 57 while it failed: begun after its first failure, before its success, without 57 itself (its bisected halves).
      const of57 = seen.filter((s) => recordsOf(s).some((r) => r.offset === 57)).map((s) => spans.get(s.requestId)!);
      const firstFailure = of57.find((sp) => !sp.ok)!.end;
      const success = of57.find((sp) => sp.ok)!.start;
      const pastWhileFailing = seen.filter((s) => { const sp = spans.get(s.requestId); return sp && sp.start > firstFailure && sp.start < success && !recordsOf(s).some((r) => r.offset === 57) && recordsOf(s).some((r) => r.offset > 57); }).length;
      console.log(`[parallel ${ordering}] ${seen.length} invocations of a keyless topic, at most ${report.maxInFlight} at once, ${pastWhileFailing} began past offset 57 while it failed, ${ok.size} ok`);
      expect(ok.size).toBe(count);
      expect(await committedMetadata(h.trigger.consumerGroupId, topic, 0)).toEqual({ offset: count, metadata: null });
      await h.stop();
      harnesses.splice(harnesses.indexOf(h), 1);
      return { report, pastWhileFailing };
    };
    const keyed = await run('key');
    expect(keyed.report.maxInFlight).toBe(1); // one (null) key: partition order
    expect(keyed.report.overlaps).toEqual([]);
    expect(keyed.pastWhileFailing).toBe(0);
    const unordered = await run('unordered');
    expect(unordered.report.maxInFlight).toBeGreaterThanOrEqual(5);
    expect(unordered.report.maxInFlight).toBeLessThanOrEqual(10);
    expect(unordered.pastWhileFailing).toBeGreaterThan(0);
  });

  it('hands a partition from 1 member to 2 under load: the new owner skips what the metadata marks done, 0 overlaps, each key in order', async () => {
    const topic = uniqueName('pf-rebalance');
    topics.push(topic);
    await createTopic(topic, 2);
    // A key always goes to the same partition, as a producer's partitioner does.
    let count = 0;
    const more = async (n: number) => {
      await produce(topic, Array.from({ length: n }, (_, j) => count + j).map((i) => ({ key: `k${i % 100}`, value: `v${i}`, partition: i % 2 })));
      count += n;
    };
    await more(16_000);
    const groupId = uniqueName('group');
    const spans = new Map<string, Interval & { member: number; partition: number }>();
    const found: string[] = [];
    const member = async (n: number) => {
      const events = new Instrumentation();
      events.on('poller.commit_metadata', (e) => found.push(`member ${n} partition ${e.partition}: ${e.kind}, ${e.skipped} skipped`));
      events.on('poller.chunk_end', (e) => {
        const end = Date.now();
        if (e.requestId) spans.set(e.requestId, { requestId: e.requestId, start: end - e.durationMs, end, ok: e.ok, member: n, partition: e.partition });
      });
      const h = await startRecorder({ topic, consumerGroupId: groupId, batchSize: 10, parallelizationFactor: 10, events, env: { SLEEP_MS: '100' } });
      harnesses.push(h);
      return h;
    };
    const one = await member(1);
    await waitFor('member 1 under way', () => one.completed().length >= 100, 60_000);
    const two = await member(2);
    // The load lasts until the join has moved a partition, however long the join takes on a busy
    // machine: KIP-848 moves it on the members' heartbeats (5 s apart by default), and CI drained a
    // fixed backlog of 8,000 first. At least 4 s of work per partition stays ahead of member 1.
    await waitFor('a partition moved to member 2 under load', async () => {
      if (two.seen().length > 0) return true;
      const lags = await offsets(groupId, topic);
      if (lags.some((p) => p.logEnd - p.committed < 4_000)) await more(8_000);
      return false;
    }, 120_000, 250);
    await waitFor('all committed', async () => (await offsets(groupId, topic)).every((p) => p.committed === count / 2), 120_000);

    const seen = [...one.seen(), ...two.seen()];
    const report = checkKeyOrder(seen, spans);
    const okBy = (h: Harness) => h.seen().filter((s) => h.completed().includes(s.requestId)).flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`);
    const [byOne, byTwo] = [okBy(one), okBy(two)];
    const twice = byTwo.filter((k) => byOne.includes(k));
    const moved = new Set(two.seen().flatMap(recordsOf).map((r) => r.partition));
    // Two members on one partition at once: any invocation of one overlapping another member's on the same partition.
    const all = [...spans.values()];
    const overlaps = all.filter((a) => all.some((b) => b.member !== a.member && b.partition === a.partition && b.start < a.end - 5 && a.start < b.end - 5));
    console.log(`[parallel rebalance] member 1 ran ${byOne.length} records, member 2 ${byTwo.length} (partitions ${[...moved].join(',')}); invoked by both: ${twice.length}; overlaps of members ${overlaps.length}; key overlaps ${report.overlaps.length}, out of order ${report.outOfOrder.length}; at most ${report.maxInFlight} at once; commits found: ${found.join('; ')}`);
    expect(moved.size).toBe(1); // the join moved one partition
    expect(found.filter((f) => f.startsWith('member 2'))).toHaveLength(1); // its new owner read the group's commit
    expect(new Set([...byOne, ...byTwo]).size).toBe(count); // 0 lost
    expect(twice).toEqual([]); // the new owner skipped everything done
    expect(overlaps).toEqual([]);
    expect(report.overlaps).toEqual([]);
    expect(report.outOfOrder).toEqual([]);
  });

  it('sluice status shows the invocations in flight per partition (from the poller\'s /metrics) and the records done beyond the commit', async () => {
    const topic = await setup('pf-status', 300, 30);
    const h = await startRecorder({ topic, batchSize: 5, parallelizationFactor: 10, httpPort: 0, env: { SLEEP_MS: '400', SLEEP_VARY_MS: '300' } });
    harnesses.push(h);
    const read = () => readStatus({ triggers: [h.trigger], logger: testLogger, pollerMetrics: `${h.httpUrl}/metrics` });
    let seen: TriggerStatus | undefined;
    await waitFor('chunks in flight and records done beyond the commit', async () => {
      [seen] = await read();
      const inFlight = seen!.inFlight as Record<number, number>;
      return inFlight[0]! >= 2 && (seen!.partitions[0]!.doneBeyond?.records ?? 0) > 0;
    }, 30_000, 100);
    const text = formatStatus([seen!]);
    console.log(`[parallel status]\n${text}`);
    expect(text).toMatch(/lag {2}done-beyond {2}metadata {2}in-flight {2}owner/);
    expect((seen!.inFlight as Record<number, number>)[0]).toBeLessThanOrEqual(10);
    await waitFor('all committed', async () => (await committed(h, topic)) === 300, 60_000);
  });

  it('with no destination, lets the other keys flow up to the metadata\'s window, then waits on the poison record with a line and a gauge', async () => {
    const count = 26_000;
    const topic = await setup('pf-window', count, 100);
    const events = new Instrumentation();
    const windowFull: number[] = [];
    events.on('poller.partition_parallel', (e) => void (e.windowFull && windowFull.push(Date.now())));
    const failure = failurePolicy({ bisectBatchOnFunctionError: true });
    const h = await startRecorder({ topic, batchSize: 100, parallelizationFactor: 10, failure, events, env: { POISON_OFFSETS: '10' } });
    harnesses.push(h);
    const window = windowFor(DEFAULT_METADATA_MAX_BYTES);
    await waitFor('the window full', () => windowFull.length > 0, 90_000);
    await waitFor('every record the window allows done', async () => {
      const c = await committedMetadata(h.trigger.consumerGroupId, topic, 0);
      const d = decodeMetadata(c.metadata, c.offset);
      return c.offset === 10 && d.kind === 'done' && d.ranges.at(-1)!.until >= 10 + window - 100;
    }, 60_000);
    await new Promise((r) => setTimeout(r, 2_000)); // it stays put
    const c = await committedMetadata(h.trigger.consumerGroupId, topic, 0);
    const d = decodeMetadata(c.metadata, c.offset);
    const invoked = h.seen().flatMap(recordsOf).map((r) => r.offset);
    const highest = Math.max(...invoked);
    console.log(`[parallel window] committed ${c.offset}, ${c.metadata!.length} characters of metadata, done up to ${d.kind === 'done' ? d.ranges.at(-1)!.until : '?'}, highest offset invoked ${highest} (window ${window} offsets)`);
    expect(c.offset).toBe(10);
    expect(highest).toBeLessThanOrEqual(10 + window);
    expect(c.metadata!.length).toBeLessThanOrEqual(DEFAULT_METADATA_MAX_BYTES);
    // Nothing of the poison key after it ran successfully (its later records shared its failing chunk).
    const keyOfOffset = (o: number) => keyFor(o, 100);
    const ok = new Set(h.seen().filter((s) => h.completed().includes(s.requestId)).flatMap(recordsOf).map((r) => r.offset));
    expect([...ok].filter((o) => o > 10 && keyOfOffset(o) === keyOfOffset(10))).toEqual([]);
    await h.stop();
    harnesses.splice(harnesses.indexOf(h), 1);
  });

  it('with a destination, sends the poison record there and the partition drains', async () => {
    const count = 300;
    const topic = await setup('pf-dest', count, 20);
    const failed = uniqueName('pf-dest-failed');
    topics.push(failed);
    await createTopic(failed, 1);
    const failure = failurePolicy({ bisectBatchOnFunctionError: true, maximumRetryAttempts: 2, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } });
    const h = await startRecorder({ topic, batchSize: 5, parallelizationFactor: 10, failure, env: { POISON_OFFSETS: '30' } });
    harnesses.push(h);
    await waitFor('all committed', async () => (await committed(h, topic)) === count, 60_000);
    const sent = await readTopic(failed, 1);
    const ok = new Set(h.seen().filter((s) => h.completed().includes(s.requestId)).flatMap(recordsOf).map((r) => r.offset));
    expect(sent.map((r) => `${r.headers['sluice-source-offset']} ${r.headers['sluice-failure-reason']}`)).toEqual(['30 RetryAttemptsExhausted']);
    expect(ok.size).toBe(count - 1);
    expect(ok.has(30)).toBe(false);
    expect(await committedMetadata(h.trigger.consumerGroupId, topic, 0)).toEqual({ offset: count, metadata: null });
  });

  it.each([
    { kind: 'foreign', metadata: 'written by another client' },
    { kind: 'malformed', metadata: 'sluice:pf1:!!' },
    { kind: 'stale', metadata: 'sluice:pf1:QgMB' }, // 'B', base 3, offset 4 done: written beside 3, found beside 5
  ])('ignores $kind metadata beside the committed offset and invokes every record from it', async ({ kind, metadata }) => {
    const topic = await setup(`pf-${kind}`, 20, 4);
    const groupId = uniqueName('group');
    await committedMetadata(groupId, topic, 0, { offset: 5, metadata });
    const events = new Instrumentation();
    const ignored: string[] = [];
    events.on('poller.commit_metadata', (e) => ignored.push(e.kind));
    const h = await startRecorder({ topic, consumerGroupId: groupId, batchSize: 2, parallelizationFactor: 4, events });
    harnesses.push(h);
    await waitFor('all committed', async () => (await committed(h, topic)) === 20, 60_000);
    const invoked = new Set(h.seen().flatMap(recordsOf).map((r) => r.offset));
    expect([...invoked].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i + 5));
    expect(ignored).toEqual([kind]);
  });
});
