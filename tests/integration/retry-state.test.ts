/**
 * Retry, bisection and destination-wait state survive any refetch of the same records. Before,
 * a refetch that did not start exactly at the failing set forgot it: with a filtered prefix
 * (not committed until something after it succeeds) maximumRetryAttempts was never reached,
 * and a poison record that times out could not be isolated inside one poll budget.
 */
import { describe, expect, it } from 'vitest';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import { failurePolicy as policy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, offsets, produce, readTopic, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';

describe('failure state across refetches', () => {
  const { topics, harnesses } = cleanupAfterAll();
  const setup = async (prefix: string, values: string[]) => {
    const topic = uniqueName(prefix);
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    await produce(topic, values.map((value) => ({ value })));
    return { topic, failed, onFailure: { kind: 'kafka' as const, uri: `kafka://${failed}`, topic: failed } };
  };
  const timesInvoked = (h: Harness, offset: number) => h.seen().filter((s) => recordsOf(s).some((r) => r.offset === offset)).length;

  it('filterPatterns + maximumRetryAttempts 2: a failing record after a filtered prefix is invoked exactly 3 times, then sent', async () => {
    const values = Array.from({ length: 10 }, (_, i) => JSON.stringify({ keep: i >= 4, i }));
    const { topic, failed, onFailure } = await setup('filtered-retries', values);
    const h = await startRecorder({ topic, batchSize: 1, filterPatterns: [{ value: { keep: [true] } }], failure: policy({ maximumRetryAttempts: 2, onFailure }), env: { POISON_OFFSETS: '4' } });
    harnesses.push(h);
    await waitFor('committed past it', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 10, 60_000);
    const [dead] = await readTopic(failed, 1);
    const invoked = h.seen().flatMap(recordsOf).map((r) => r.offset);
    console.log(`[filtered-retries] offset 4 invoked ${timesInvoked(h, 4)} times; invocations ${JSON.stringify(invoked)}; destination got offset ${dead!.headers[FAILURE_HEADERS.offset]}`);
    expect(timesInvoked(h, 4)).toBe(3);
    expect(invoked).toEqual([4, 4, 4, 5, 6, 7, 8, 9]);
    expect(dead!.headers[FAILURE_HEADERS.offset]!.toString()).toBe('4');
    expect(dead!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RetryAttemptsExhausted');
    expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(1);
  });

  it('bisection under a poll budget that holds only 2 timeouts still isolates a poison record', async () => {
    const { topic, failed, onFailure } = await setup('budget-bisect', Array.from({ length: 8 }, (_, i) => `v${i}`));
    // 3 s timeout, 8 s interval, 1 s margin: a chunk may start up to 4 s after the fetch, so two timeouts fit.
    const h = await startRecorder({
      topic, batchSize: 8, timeoutMs: 3_000, maxPollIntervalMs: 8_000, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 1_000,
      failure: policy({ bisectBatchOnFunctionError: true, maximumRetryAttempts: 0, onFailure }), env: { TIMEOUT_OFFSETS: '5' },
    });
    harnesses.push(h);
    let exhausted = 0;
    const timeouts: string[] = [];
    const succeeded = new Set<number>();
    h.events.on('poller.budget_exhausted', () => exhausted++);
    h.events.on('poller.chunk_end', (e) => {
      if (!e.ok) timeouts.push(`${e.firstOffset}-${e.lastOffset}`);
      else for (let o = e.firstOffset; o <= e.lastOffset; o++) succeeded.add(o);
    });
    await waitFor('committed to the end', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 8, 90_000);
    const dead = await readTopic(failed, 1);
    console.log(`[budget-bisect] timed-out chunks ${timeouts.join(', ')}; budget ran out ${exhausted} times; destination got ${dead.map((d) => d.headers[FAILURE_HEADERS.offset]!.toString())}`);
    expect(exhausted).toBeGreaterThan(0);
    expect(timeouts).toEqual(['0-7', '4-7', '4-5', '5-5']);
    expect(dead.map((d) => d.headers[FAILURE_HEADERS.offset]!.toString())).toEqual(['5']);
    expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(1);
    expect([...succeeded].sort()).toEqual([0, 1, 2, 3, 4, 6, 7]);
  });
});
