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
    // In the order the poller emitted them; a fetch is told apart by its fetchedAt.
    const seen: Array<{ kind: 'start'; fetch: number; offset: number } | { kind: 'exhausted'; nextOffset: number; elapsedMs: number }> = [];
    h.events.on('poller.chunk_start', (e) => seen.push({ kind: 'start', fetch: e.fetchedAt, offset: e.firstOffset }));
    h.events.on('poller.budget_exhausted', (e) => seen.push({ kind: 'exhausted', nextOffset: e.nextOffset, elapsedMs: e.elapsedMs }));
    await waitFor('committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 6, 60_000);

    const starts = seen.flatMap((e) => (e.kind === 'start' ? [e] : []));
    const perFetch = new Map<number, number[]>();
    for (const s of starts) perFetch.set(s.fetch, [...(perFetch.get(s.fetch) ?? []), s.offset]);
    const exhausted = seen.flatMap((e, i) => (e.kind === 'exhausted' ? [{ ...e, i }] : []));
    console.log(`[budget] chunks per fetch: ${JSON.stringify([...perFetch.values()])}; returned to the group ${exhausted.length} times, ${exhausted.map((e) => `${e.elapsedMs} ms`).join(', ')} into the fetch (margin ${safetyMarginMs(maxPollIntervalMs)} ms)`);

    // Each chunk takes at least 2 s (the handler sleeps), so a third chunk of a fetch would start
    // 4 s or more into it and could end past 4 + 3 + 1 > 7 s: the budget allows two per fetch.
    for (const offsetsOfFetch of perFetch.values()) expect(offsetsOfFetch.length).toBeLessThanOrEqual(2);
    expect([...perFetch.values()].some((o) => o.length === 2)).toBe(true);
    expect(exhausted.length).toBeGreaterThanOrEqual(2);
    // After each return, the next chunk comes from a new fetch, starting where the budget stopped.
    for (const e of exhausted) {
      const before = seen.slice(0, e.i).flatMap((x) => (x.kind === 'start' ? [x.fetch] : []));
      const next = seen.slice(e.i + 1).find((x) => x.kind === 'start');
      expect(next).toMatchObject({ offset: e.nextOffset });
      expect(before).not.toContain(next!.kind === 'start' ? next!.fetch : undefined);
    }
    expect(starts.map((s) => s.offset)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
