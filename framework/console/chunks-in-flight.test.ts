import { describe, expect, it } from 'vitest';
import { ChunksInFlight } from './chunks-in-flight.ts';

const start = (firstOffset: number, attempt = 1) => ({ functionName: 'f', topic: 't', partition: 0, count: 10, firstOffset, lastOffset: firstOffset + 9, attempt, bytes: 100, fetchedAt: 500 });
const limits = { timeoutMs: 1_000, maxPollIntervalMs: 60_000 };

describe('ChunksInFlight', () => {
  it('shows the chunks running, by offset, until the end of their attempt', () => {
    const chunks = new ChunksInFlight();
    chunks.started(start(20), 1_000);
    chunks.started(start(0), 1_001);
    chunks.started(start(10), 1_002);
    chunks.ended({ firstOffset: 0, attempt: 1 });
    expect(chunks.view(limits).map((c) => [c.firstOffset, c.startedAt, c.timeoutAt, c.pollDeadlineAt])).toEqual([[10, 1_002, 2_002, 60_500], [20, 1_000, 2_000, 60_500]]);
  });

  it('replaces a chunk whose end never came by its retry, and ignores the late end of an older attempt', () => {
    const chunks = new ChunksInFlight();
    chunks.started(start(0, 1), 1_000); // the invoker threw: no chunk_end for attempt 1
    chunks.started(start(0, 2), 2_000);
    chunks.ended({ firstOffset: 0, attempt: 1 });
    expect(chunks.view(limits).map((c) => [c.attempt, c.startedAt])).toEqual([[2, 2_000]]);
    chunks.ended({ firstOffset: 0, attempt: 2 });
    expect(chunks.view(limits)).toEqual([]);
  });
});
