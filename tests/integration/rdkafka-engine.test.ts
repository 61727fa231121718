/**
 * The librdkafka engine (issue 29) on the real broker: consuming and committing exactly with
 * KIP-848's consumer protocol, a failing chunk retried without passing it, and an incremental
 * rebalance in which the partitions that stay with a member never stop.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Instrumentation } from '../../framework/observe/events.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('engine librdkafka', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });
  const setup = async (prefix: string, partitions: number, count: number) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, partitions);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ value: `v${i}`, partition: i % partitions })));
    return topic;
  };
  const allCommitted = async (h: Harness, topic: string, perPartition: number) => (await offsets(h.trigger.consumerGroupId, topic)).every((p) => p.committed === perPartition);

  it('consumes every record once and commits the log end, joined with the consumer protocol', async () => {
    const topic = await setup('rdk-basic', 6, 600);
    const h = await startRecorder({ topic, batchSize: 50, engine: 'librdkafka', groupProtocol: 'consumer' });
    harnesses.push(h);
    await waitFor('all committed', () => allCommitted(h, topic, 100), 60_000);
    const seen = h.seen().flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`);
    console.log(`[rdkafka basic] ${h.seen().length} invocations, ${seen.length} records`);
    expect(new Set(seen).size).toBe(600);
    expect(seen).toHaveLength(600);
  });

  it('does not commit past a failing chunk until it succeeds, and refetches it', async () => {
    const topic = await setup('rdk-fail', 1, 100);
    const h = await startRecorder({ topic, batchSize: 10, engine: 'librdkafka', groupProtocol: 'consumer', env: { FAIL_AT_OFFSET: '35', FAIL_TIMES: '3' } });
    harnesses.push(h);
    await waitFor('all committed', () => allCommitted(h, topic, 100), 60_000);
    const invocations = h.seen();
    const withPoison = invocations.filter((s) => recordsOf(s).some((r) => r.offset === 35));
    expect(withPoison).toHaveLength(4);
    expect(withPoison.every((s) => recordsOf(s)[0]!.offset === 30)).toBe(true);
    const firstSuccessAt = invocations.indexOf(withPoison[3]!);
    expect(invocations.slice(0, firstSuccessAt).flatMap(recordsOf).every((r) => r.offset < 40)).toBe(true);
    expect(new Set(invocations.flatMap(recordsOf).map((r) => r.offset)).size).toBe(100);
  });

  it.each([
    { engine: 'librdkafka' as const, groupProtocol: 'consumer' as const },
    { engine: 'kafkajs' as const, groupProtocol: 'classic' as const },
  ])('a second member joins under load ($engine, $groupProtocol): 0 lost, 0 overlaps; the gap on partitions that stay', async ({ engine, groupProtocol }) => {
    const partitions = 6;
    const topic = await setup(`rdk-join-${engine}`, partitions, 6 * 60);
    const groupId = uniqueName('group');
    const spans: Array<{ member: number; partition: number; start: number; end: number; first: number }> = [];
    const member = async (n: number) => {
      const events = new Instrumentation();
      const starts = new Map<string, number>();
      events.on('poller.chunk_start', (e) => starts.set(`${e.partition}:${e.firstOffset}:${e.attempt}`, Date.now()));
      events.on('poller.chunk_end', (e) => spans.push({ member: n, partition: e.partition, start: starts.get(`${e.partition}:${e.firstOffset}:${e.attempt}`)!, end: Date.now(), first: e.firstOffset }));
      const h = await startRecorder({ topic, consumerGroupId: groupId, batchSize: 5, engine, groupProtocol, concurrency: partitions, events, env: { SLEEP_MS: '500' } });
      harnesses.push(h);
      return h;
    };
    const one = await member(1);
    await waitFor('member 1 under way', () => one.completed().length >= 12, 60_000);
    const joinAt = Date.now();
    const two = await member(2);
    await waitFor('all committed', async () => (await offsets(groupId, topic)).every((p) => p.committed === 60), 120_000);
    const moved = new Set(spans.filter((s) => s.member === 2).map((s) => s.partition));
    const stayed = [...Array(partitions).keys()].filter((p) => !moved.has(p) && spans.some((s) => s.member === 1 && s.partition === p && s.start > joinAt));
    // The longest time a partition that stayed with member 1 went without a chunk running, from the join on.
    const gap = (p: number) => {
      const mine = spans.filter((s) => s.member === 1 && s.partition === p && s.end > joinAt).sort((a, b) => a.start - b.start);
      let longest = 0;
      for (let i = 1; i < mine.length; i++) longest = Math.max(longest, mine[i]!.start - mine[i - 1]!.end);
      return longest;
    };
    const gaps = stayed.map(gap);
    const overlaps = spans.filter((a) => spans.some((b) => b.member !== a.member && b.partition === a.partition && b.start < a.end && a.start < b.end));
    const ok = new Set([...one.seen(), ...two.seen()].filter((s) => [...one.completed(), ...two.completed()].includes(s.requestId)).flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`));
    const twice = [...one.seen(), ...two.seen()].flatMap(recordsOf).length - ok.size;
    console.log(`[${engine} join] moved ${[...moved].join(',')}; stayed ${stayed.join(',')}; longest gap of a partition that stayed ${Math.max(0, ...gaps)} ms (${gaps.join(', ')}); overlaps ${overlaps.length}; invoked more than once ${twice}; ${ok.size} of 360 done`);
    expect(ok.size).toBe(360);
    expect(overlaps).toEqual([]);
    expect(moved.size).toBeGreaterThan(0);
  });
});
