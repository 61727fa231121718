/**
 * The chunks of one partition in flight, for the console's overview: the poller's own chunk_start
 * events, kept as they came with when each started, and made into what a page is sent only when one
 * asks. A partition has a few at a time (parallelizationFactor, at most 10): arrays scanned, not a
 * map, whose storage a key set and deleted on every chunk churns thousands of times a second at a
 * firehose.
 */
import type { SluiceEvents } from '../observe/events.ts';
import type { ChunkInFlight } from './api-types.ts';

type ChunkStart = SluiceEvents['poller.chunk_start'];

export class ChunksInFlight {
  private readonly starts: ChunkStart[] = [];
  private readonly startedAt: number[] = [];

  /** A chunk started at `at`; one of the same first offset still here (a retry: its attempt ended, or threw before its end was told) is replaced. */
  started(c: ChunkStart, at: number): void {
    const i = this.indexOf(c.firstOffset);
    this.starts[i < 0 ? this.starts.length : i] = c;
    this.startedAt[i < 0 ? this.startedAt.length : i] = at;
  }

  /** The chunk's attempt ended (an older attempt's end leaves its retry in flight). */
  ended(c: Pick<ChunkStart, 'firstOffset' | 'attempt'>): void {
    const i = this.indexOf(c.firstOffset);
    if (i < 0 || this.starts[i]!.attempt !== c.attempt) return;
    const last = this.starts.length - 1;
    this.starts[i] = this.starts[last]!;
    this.startedAt[i] = this.startedAt[last]!;
    this.starts.pop();
    this.startedAt.pop();
  }

  view(t: { timeoutMs: number; maxPollIntervalMs: number }): ChunkInFlight[] {
    const chunks = this.starts.map((c, i) => ({
      firstOffset: c.firstOffset, lastOffset: c.lastOffset, count: c.count, bytes: c.bytes, attempt: c.attempt, startedAt: this.startedAt[i]!,
      timeoutAt: this.startedAt[i]! + t.timeoutMs, fetchedAt: c.fetchedAt, pollDeadlineAt: c.fetchedAt + t.maxPollIntervalMs,
    }));
    return chunks.sort((a, b) => a.firstOffset - b.firstOffset);
  }

  private indexOf(firstOffset: number): number {
    for (let i = 0; i < this.starts.length; i++) if (this.starts[i]!.firstOffset === firstOffset) return i;
    return -1;
  }
}
