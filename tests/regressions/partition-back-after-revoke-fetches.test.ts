/**
 * A partition taken from a member while its chunk ran, then given back to the same member, is
 * fetched again. On the librdkafka engine the member pauses a partition while its batch runs;
 * a revocation then waited for that batch and dropped the partition without resuming it, and
 * librdkafka keeps a partition's pause across its revocation: when the group later assigned it
 * back (members 1 → 3 → 1 in the rebalance bench), the member owned it and never fetched it
 * again, its lag growing for ever. Runs in both tiers (kafkajs in `integration`, librdkafka in
 * `engines`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Instrumentation } from '../../framework/observe/events.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('a partition given back to the member it was revoked from', () => {
  const topic = uniqueName('given-back');
  const groupId = uniqueName('given-back-group');
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await deleteTopic(topic);
  });

  it('is fetched and committed to its log end after it comes back', async () => {
    await createTopic(topic, 2);
    await produce(topic, Array.from({ length: 80 }, (_, i) => ({ partition: i % 2, value: `a${i}` })));
    let revokedWhileRunning = 0;
    const running = new Set<number>();
    const events = new Instrumentation();
    events.on('poller.chunk_start', (e) => running.add(e.partition));
    events.on('poller.chunk_end', (e) => running.delete(e.partition));
    events.on('group.rebalance_detected', (e) => (revokedWhileRunning += (e.partitions ?? [0, 1]).filter((p) => running.has(p)).length));
    const member = (extra: { events?: Instrumentation } = {}) =>
      startRecorder({ topic, consumerGroupId: groupId, batchSize: 4, maximumBatchingWindowMs: 0, concurrency: 2, env: { SLEEP_MS: '700' }, ...extra });
    const a = await member({ events });
    harnesses.push(a);
    await waitFor('the first member running chunks of both partitions', () => new Set(a.seen().flatMap(recordsOf).map((r) => r.partition)).size === 2, 60_000);
    const b = await member();
    harnesses.push(b);
    const owned = (h: Harness) => h.joins.at(-1)?.assignment[topic] ?? [];
    await waitFor('the partitions split between the two members', () => owned(a).length === 1 && owned(b).length === 1, 90_000);
    await waitFor('the second member ran a chunk', () => b.completed().length > 0, 60_000);
    await b.stop();
    harnesses.splice(harnesses.indexOf(b), 1);
    await waitFor('the first member owning both partitions again', () => owned(a).length === 2, 90_000);
    await produce(topic, Array.from({ length: 20 }, (_, i) => ({ partition: i % 2, value: `b${i}` })));
    await waitFor('the group committed the log end of both partitions', async () => (await offsets(groupId, topic)).every((p) => p.committed === 50), 90_000);
    const done = new Set([...a.seen(), ...b.seen()].flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`));
    console.log(`[given-back] ${revokedWhileRunning} partition(s) revoked from the first member while their chunk ran; ${done.size} of 100 records invoked; committed 50 and 50`);
    expect(done.size).toBe(100);
  });
});
