/**
 * Pure: where a partition fetches from after a run of its batch with several chunks at once, and
 * whether it pauses. With parallelizationFactor > 1 the fetch position is not the committed
 * offset: a held record (a poison key waiting to retry) keeps the commit low while the fetch goes
 * on, so the other keys keep flowing (docs/design/parallelization.md §4).
 *
 * kafkajs hands over only non-empty fetches, and a held retry needs a batch to run in. So when
 * retries are held and no new record would come (the log's end was reached, or nothing past the
 * metadata's window may start), the partition pauses until the first retry is due and then
 * fetches from a record it already has: the batch comes, made of records known done, and the
 * due retries run in it.
 */

export interface RunEnd {
  /** The committed offset (the lowest not done). */
  next: number;
  /** Offsets beyond `next` the metadata can describe (commit-metadata.ts, windowFor). */
  window: number;
  /** The lowest fetched record that is neither done, running nor held: it did not start (the poll budget, a rebalance, the window). */
  firstUnstarted?: number;
  /** The offset after the batch's last record. */
  batchEnd: number;
  /** The batch reached the partition's high watermark: a fetch from `batchEnd` would be empty for now. */
  atLogEnd: boolean;
  /** When each held retry (or send to the destination) is due, epoch ms. */
  heldDueAt: readonly number[];
  now: number;
  /** The longest a partition at its log end pauses for a held retry before fetching again (new records may have come). */
  idlePauseMs: number;
}

export interface FetchPlan {
  /** The next offset kafkajs fetches (resolveOffset(fetchFrom - 1)). */
  fetchFrom: number;
  /** Pause the partition this long first (then fetch from `fetchFrom`). */
  pauseMs?: number;
  /** Records wait beyond the window: say so (once per episode) and set the gauge. */
  windowFull: boolean;
}

export function planFetch(end: RunEnd): FetchPlan {
  const windowEnd = end.next + end.window + 1; // the first offset no chunk may hold
  const resume = Math.min(end.firstUnstarted ?? end.batchEnd, end.batchEnd, windowEnd);
  const windowFull = resume === windowEnd && (end.batchEnd > windowEnd || !end.atLogEnd);
  if (end.heldDueAt.length === 0) return { fetchFrom: resume, windowFull };
  const dueInMs = Math.max(0, Math.min(...end.heldDueAt) - end.now);
  // Nothing may start before the commit moves, which only a held retry can do now: wait for it.
  if (windowFull) return { fetchFrom: resume, pauseMs: dueInMs, windowFull };
  // A fetch brings records (a batch to run due retries in) without waiting.
  if (resume < end.batchEnd || !end.atLogEnd) return { fetchFrom: resume, windowFull };
  // At the log's end a fetch from `resume` would be empty: fetch the last record again, at least
  // every `idlePauseMs`, so records written meanwhile wait no longer than that, nor the retry.
  return { fetchFrom: end.batchEnd - 1, pauseMs: Math.min(dueInMs, end.idlePauseMs), windowFull };
}
