/**
 * The poll-interval budget: with a budget that allows two chunks per poll (2 s chunks, 3 s
 * timeout, 7 s interval, 1 s margin), the poller returns to the group between chunks and
 * never starts a chunk whose worst case would end past the interval.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { safetyMarginMs } from '../../framework/chunking/budget.ts';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('poll-interval budget', () => {
  const topic = uniqueName('budget');
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await deleteTopic(topic);
  });

  it('returns to the group when the next chunk would not fit, and starts none past the budget', async () => {
    const timeoutMs = 3_000;
    const maxPollIntervalMs = 7_000;
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: 6 }, (_, i) => ({ value: `v${i}` })));
    h = await startRecorder({ topic, batchSize: 1, timeoutMs, maxPollIntervalMs, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 1_000, env: { SLEEP_MS: '2000' } });
    const starts: Array<{ at: number; fetchedAt: number; offset: number }> = [];
    const exhausted: Array<{ at: number; nextOffset: number; elapsedMs: number }> = [];
    h.events.on('poller.chunk_start', (e) => starts.push({ at: Date.now(), fetchedAt: e.fetchedAt, offset: e.firstOffset }));
    h.events.on('poller.budget_exhausted', (e) => exhausted.push({ at: Date.now(), nextOffset: e.nextOffset, elapsedMs: e.elapsedMs }));
    await waitFor('committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 6, 60_000);

    const perFetch = new Map<number, number[]>();
    for (const s of starts) perFetch.set(s.fetchedAt, [...(perFetch.get(s.fetchedAt) ?? []), s.offset]);
    console.log(`[budget] chunks per fetch: ${JSON.stringify([...perFetch.values()])}; returned to the group ${exhausted.length} times at ${exhausted.map((e) => `${e.elapsedMs} ms`).join(', ')}`);

    const margin = safetyMarginMs(maxPollIntervalMs);
    for (const s of starts) expect(s.at - s.fetchedAt + timeoutMs + margin).toBeLessThanOrEqual(maxPollIntervalMs);
    for (const offsetsOfFetch of perFetch.values()) expect(offsetsOfFetch.length).toBeLessThanOrEqual(2);
    expect([...perFetch.values()].some((o) => o.length === 2)).toBe(true);
    expect(exhausted.length).toBeGreaterThanOrEqual(2);
    // After each return, the next chunk comes from a new fetch, starting where the budget stopped.
    for (const e of exhausted) {
      const next = starts.find((s) => s.at > e.at)!;
      expect(next.offset).toBe(e.nextOffset);
      expect(next.fetchedAt).toBeGreaterThan(e.at - 1);
    }
    expect(starts.map((s) => s.offset)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
