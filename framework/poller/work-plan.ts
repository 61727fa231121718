/**
 * Pure: turns one partition's fetched records into the queue of work the poller goes
 * through. Records that match no filter pattern are left out (they are committed over);
 * records a failure already shaped (a set being retried, a bisected half, a set waiting for
 * the destination) come back exactly as they were left, with their attempts; the rest is cut
 * by planChunks. What was left is kept by offsets, not by where a fetch starts, so it survives
 * any refetch of the same records: one after a backoff, after the poll budget ran out, or one
 * that starts earlier because a filtered prefix was not committed yet. A record the schema
 * registry could not decode, or one that could not be read or filtered (README, "Bounds on hostile
 * input"), becomes an item of its own, to give up on (AWS sends it to the destination before filtering).
 */
import { planChunks, type ChunkLimits } from '../chunking/chunker.ts';
import type { KafkaRecord } from '../event/record.ts';
import { isSchemaFailure, type FailureReason, type InputFailureReason, type SchemaFailureReason } from '../failure/policy.ts';

export interface WorkItem {
  records: KafkaRecord[];
  /** Failed invocations of exactly this set so far. */
  attempts: number;
  /** Set when the policy already gave up on these records: send them to the destination. */
  giveUp?: FailureReason;
  /** Event bytes of the chunk (or of the record alone, for PayloadTooLarge). */
  bytes: number;
  error?: string;
  /** Failed sends of these records to the destination in a row. */
  sendFailures?: number;
  /** Invocations in a row that never reached the function (they cost no attempt; they set the backoff). */
  unreached?: number;
  /** Shaped by a failure: its boundaries, attempts and sends must survive a refetch. */
  remembered?: true;
}

/** A work item as kept between fetches: its offsets (inclusive), not its records. */
export interface RememberedItem {
  from: number;
  until: number;
  attempts: number;
  bytes: number;
  giveUp?: FailureReason;
  error?: string;
  sendFailures: number;
  unreached?: number;
}

/** The items of a queue to keep for the next fetch, in offset order. */
export function rememberItems(queue: readonly WorkItem[]): RememberedItem[] {
  return queue
    .filter((w) => w.remembered && w.records.length > 0)
    .map((w) => ({
      from: w.records[0]!.offset,
      until: w.records[w.records.length - 1]!.offset,
      attempts: w.attempts,
      bytes: w.bytes,
      sendFailures: w.sendFailures ?? 0,
      ...(w.unreached ? { unreached: w.unreached } : {}),
      ...(w.giveUp ? { giveUp: w.giveUp } : {}),
      ...(w.error ? { error: w.error } : {}),
    }));
}

/**
 * A record the schema registry could not decode, or that could not be read or filtered at all
 * (`KafkaRecord.unreadable`, a filter that threw): it goes to the destination alone, before any filter.
 */
export interface Undecodable {
  reason: SchemaFailureReason | InputFailureReason;
  error: string;
}

/** Whether the filters keep `r`; a filter that throws on a record is that record's failure, not the member's crash. */
function filterVerdict(matches: (r: KafkaRecord) => boolean, r: KafkaRecord): boolean | Undecodable {
  try {
    return matches(r);
  } catch (e) {
    return { reason: 'FilterFailed', error: `the filter patterns could not be evaluated on it: ${(e as Error)?.message ?? String(e)}` };
  }
}

export function planWork(
  records: readonly KafkaRecord[],
  matches: (r: KafkaRecord) => boolean,
  limits: ChunkLimits,
  remembered: readonly RememberedItem[] = [],
  undecodable: ReadonlyMap<number, Undecodable> = new Map(),
): WorkItem[] {
  const work: WorkItem[] = [];
  let fresh: KafkaRecord[] = [];
  let open: { item: RememberedItem; records: KafkaRecord[] } | undefined;
  const flushFresh = () => {
    for (const step of planChunks(fresh, limits)) {
      work.push(step.kind === 'chunk' ? { records: step.records, attempts: 0, bytes: step.bytes } : { records: [step.record], attempts: 0, bytes: step.bytes, giveUp: 'PayloadTooLarge' });
    }
    fresh = [];
  };
  const closeOpen = () => {
    if (!open) return;
    const { item: m, records: rs } = open;
    work.push({
      records: rs, attempts: m.attempts, bytes: m.bytes, remembered: true, sendFailures: m.sendFailures, ...(m.unreached ? { unreached: m.unreached } : {}),
      ...(m.giveUp ? { giveUp: m.giveUp } : {}), ...(m.error ? { error: m.error } : {}),
    });
    open = undefined;
  };

  let i = 0;
  for (const r of records) {
    let bad: Undecodable | undefined = r.unreadable ?? undecodable.get(r.offset);
    if (!bad) {
      const verdict = filterVerdict(matches, r);
      if (verdict === false) continue;
      if (verdict !== true) bad = verdict;
    }
    while (i < remembered.length && remembered[i]!.until < r.offset) i++;
    const m = remembered[i];
    // A record held for a schema failure is not kept as it was left: the registry's verdict is taken
    // again on every fetch (a schema registered since decodes now), only its failed sends carry over.
    const held = m && r.offset >= m.from && m.giveUp && isSchemaFailure(m.giveUp) ? m : undefined;
    if (m && r.offset >= m.from && !held) {
      flushFresh();
      if (open?.item !== m) {
        closeOpen();
        open = { item: m, records: [] };
      }
      open.records.push(r);
    } else if (bad) {
      closeOpen();
      flushFresh();
      work.push({ records: [r], attempts: 0, bytes: 0, giveUp: bad.reason, error: bad.error, ...(held ? { sendFailures: held.sendFailures, remembered: true as const } : {}) });
    } else {
      closeOpen();
      fresh.push(r);
    }
  }
  closeOpen();
  flushFresh();
  return work;
}
