/**
 * A handler that throws on one batch: the offset does not move past the failed chunk until a
 * retry succeeds, and nothing is skipped. A handler that overruns its timeout is stopped and
 * its chunk counts as failed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('failed invocations', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });

  const setup = async (prefix: string, count: number) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ value: `v${i}`, partition: 0 })));
    return topic;
  };

  it('does not commit past a failing chunk until it succeeds', async () => {
    const topic = await setup('fail', 100);
    const h = await startRecorder({ topic, batchSize: 10, env: { FAIL_AT_OFFSET: '35', FAIL_TIMES: '3' } });
    harnesses.push(h);
    const committedWhileFailing: number[] = [];
    const off = h.events.on('poller.retry_scheduled', () => {
      void offsets(h.trigger.consumerGroupId, topic).then((o) => committedWhileFailing.push(o[0]!.committed));
    });
    await waitFor('all committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 100, 90_000);
    off();

    const invocations = h.seen();
    const withPoison = invocations.filter((s) => recordsOf(s).some((r) => r.offset === 35));
    console.log(`[failure] ${invocations.length} invocations; the chunk holding offset 35 was invoked ${withPoison.length} times; committed while failing: ${committedWhileFailing.join(',')}`);
    expect(withPoison).toHaveLength(4); // 3 planned failures, then success
    expect(withPoison.every((s) => recordsOf(s)[0]!.offset === 30)).toBe(true);
    expect(committedWhileFailing.length).toBeGreaterThanOrEqual(3);
    expect(committedWhileFailing.every((c) => c === 30)).toBe(true);
    // Nothing after the failed chunk ran before it succeeded; nothing was skipped.
    const firstSuccessAt = invocations.indexOf(withPoison[3]!);
    expect(invocations.slice(0, firstSuccessAt).flatMap(recordsOf).every((r) => r.offset < 40)).toBe(true);
    expect(new Set(invocations.flatMap(recordsOf).map((r) => r.offset)).size).toBe(100);
  });

  it.each(['SLEEP_FIRST_MS', 'BUSY_FIRST_MS'])('stops a handler that exceeds its timeout (%s) and counts the chunk as failed', async (how) => {
    const topic = await setup('timeout', 20);
    // The first invocation would run 10 minutes: everything committed within the wait shows it was stopped.
    const h = await startRecorder({ topic, batchSize: 20, timeoutMs: 1_000, env: { [how]: '600000' } });
    harnesses.push(h);
    const ends: Array<{ ok: boolean; durationMs: number; error?: string }> = [];
    h.events.on('poller.chunk_end', (e) => ends.push(e));
    await waitFor('all committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 20, 60_000);

    console.log(`[timeout ${how}] chunk results: ${ends.map((e) => `${e.ok ? 'ok' : 'failed'} in ${e.durationMs} ms`).join(', ')}`);
    expect(ends[0]).toMatchObject({ ok: false, error: 'Task timed out after 1.00 seconds' });
    expect(ends.at(-1)!.ok).toBe(true);
    // The timed-out invocation never returned: only the retry completed.
    expect(h.seen()).toHaveLength(2);
    expect(h.completed()).toEqual([h.seen()[1]!.requestId]);
  });
});
