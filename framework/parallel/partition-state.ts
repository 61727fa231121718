/**
 * One partition's progress while several of its chunks run at once (parallelizationFactor > 1):
 * what was fetched, what it still owes, and what a commit of it says. A record is owed from the
 * fetch that brings it until it is done (invoked successfully, filtered out, or in the on-failure
 * destination); every offset below `fetchedEnd` that is not owed is done, gaps included. Owed
 * records stay in memory (waiting to start, running, or held for a retry), so a key held by a
 * failing record never makes the partition fetch the same records again; they never reach past
 * the commit metadata's window (commit-metadata.ts), which bounds that memory.
 *
 * A new owner starts from the group's commit: its offset, and the ranges its metadata marks done
 * (`seed`), skipped when they are fetched. Ranges this owner has not fetched yet travel on in its
 * own commits, so a crash right after a hand-over does not forget them either.
 */
import type { KafkaRecord } from '../event/record.ts';
import type { FailureReason } from '../failure/policy.ts';
import type { WorkItem } from '../poller/work-plan.ts';
import { clampRanges, committable, inRanges, type OffsetRange } from './done-ranges.ts';
import { encodeMetadata, windowFor } from './commit-metadata.ts';
import type { OrderingKeyOf } from './key-scheduler.ts';

/** A fetched record that is owed and has not started. */
export interface Pending {
  offset: number;
  record: KafkaRecord;
  /** Its ordering key (key-scheduler.ts, orderingKeyOf): made by pendingOf only. */
  key: string;
  /** Bytes the record adds to an event (eventRecordBytes), or for a give-up the event it alone would be. */
  bytes: number;
  /** The record is given up on at once (unreadable, undecodable, too large to invoke): alone, to the destination. */
  giveUp?: FailureReason;
  error?: string;
}

/** A record to invoke (`bytes`: what it adds to an event), or with `giveUp` one to give up on alone; `keyOf`: the trigger's ordering. */
export function pendingOf(record: KafkaRecord, bytes: number, giveUp: { reason: FailureReason; error?: string } | undefined, keyOf: OrderingKeyOf): Pending {
  const p: Pending = { offset: record.offset, record, key: keyOf(record), bytes };
  if (giveUp) Object.assign(p, { giveUp: giveUp.reason }, giveUp.error ? { error: giveUp.error } : {});
  return p;
}

/**
 * Work that runs one item at a time: a chunk, or what its failure shaped (bisected halves that
 * share a key). Its records' keys are held until they are done.
 */
export interface Lane {
  items: WorkItem[];
  /** Held: when it may run again (epoch ms). */
  dueAt: number;
}

/** What a commit of the partition says: the offset, and the metadata of what is done beyond it. */
export interface CommitPoint {
  next: number;
  metadata: string | null;
  /** The ranges done beyond `next` that the metadata says (none when it is null). */
  done?: OffsetRange[];
}

export class PartitionState {
  /** Owed offsets, ascending: pending, running and held records. */
  private readonly owed: number[] = [];
  /** The offset after the last one fetched and looked at; undefined until the first batch. */
  private end: number | undefined;
  /** Done ranges from the commit this owner started from, above `end` (not fetched yet). */
  private seed: OffsetRange[];
  readonly pending: Pending[] = [];
  readonly held: Lane[] = [];
  /**
   * The commit this state was built from or last made (an unchanged group commit lets a rejoin keep
   * the state); for a group with no commit at all, the first fetch's offset, so nothing is committed
   * before a record is done.
   */
  basis: CommitPoint | undefined;
  /** A record was left unfetched because it lies past the metadata's window (until a fetch takes one in again). */
  windowFull = false;
  /** The full window was said (once an episode). */
  windowWarned = false;
  /** The basis an uncommitted group's first fetch gave: still it, this state has committed nothing. */
  private firstBasis: CommitPoint | undefined;

  /**
   * `uncommitted`: the group has no commit of the partition, as read (not one set aside as stale,
   * nor a read that failed, nor a trigger reading such partitions from the log end): the first fetch
   * is where it starts. Otherwise the first fetch's offset is committed at once, over what the group holds.
   */
  constructor(
    public joinId: string,
    committed: number | undefined,
    seed: OffsetRange[] = [],
    metadata: string | null = null,
    private readonly uncommitted = false,
  ) {
    this.end = committed;
    this.seed = seed;
    this.basis = committed === undefined ? undefined : { next: committed, metadata };
    this.fold();
  }

  /** Built for a group that held no commit of the partition, and no commit of it made since. */
  get neverCommitted(): boolean {
    return this.uncommitted && (this.basis === undefined || this.basis === this.firstBasis);
  }

  /** Where fetching goes on (the offset after the last record looked at). */
  get fetchedEnd(): number | undefined {
    return this.end;
  }

  /** The lowest offset not known done: what a commit now would commit. */
  get next(): number | undefined {
    return this.owed[0] ?? this.end;
  }

  /**
   * Takes in a fetched batch, in offset order: `verdicts` has the records to invoke or give up on
   * (absent: filtered out, so done). What was fetched before, or the seed marks done, is skipped;
   * nothing past `window` offsets beyond the lowest owed one is taken (it is fetched again once
   * the commit moved). Returns the records that became pending.
   */
  admit(records: readonly KafkaRecord[], verdicts: ReadonlyMap<number, Pending>, batchEnd: number, window: number): number {
    if (records.length === 0) return 0;
    if (this.end === undefined) {
      this.end = records[0]!.offset;
      // The group has no commit: the first fetch's offset is where the partition starts, nothing to commit until it moves.
      if (this.uncommitted) this.basis = this.firstBasis = { next: this.end, metadata: null };
    }
    const from = this.end;
    const maxOffset = (this.owed[0] ?? from) + window;
    let end = batchEnd;
    let added = 0;
    for (const record of records) {
      const { offset } = record;
      if (offset < from) continue;
      this.windowFull = offset > maxOffset;
      if (this.windowFull) {
        end = offset;
        break;
      }
      const pending = verdicts.get(offset);
      if (!pending || inRanges(this.seed, offset)) continue;
      this.owed.push(offset);
      this.pending.push(pending);
      added++;
    }
    this.end = Math.max(from, end);
    this.fold();
    return added;
  }

  /** The pending records `started` (by offset) are running now. */
  started(started: ReadonlySet<number>): void {
    let kept = 0;
    for (const p of this.pending) if (!started.has(p.offset)) this.pending[kept++] = p;
    this.pending.length = kept;
  }

  /** These offsets are done. */
  done(offsets: Iterable<number>): void {
    for (const o of offsets) {
      const at = lowerBound(this.owed, o);
      if (this.owed[at] === o) this.owed.splice(at, 1);
    }
  }

  /** What to commit now, with metadata of at most `maxBytes` characters; undefined before the first batch. */
  commitPoint(maxBytes: number): CommitPoint | undefined {
    if (this.end === undefined) return undefined;
    const { next, doneBeyond } = committable(this.owed, this.end);
    const ranges = [...doneBeyond, ...this.seed];
    const metadata = encodeMetadata(next, ranges, maxBytes);
    return { next, metadata, done: metadata === null ? [] : clampRanges(ranges, next + windowFor(maxBytes)) };
  }

  /** The lowest offset whose record is in memory (pending or held): fetching it again brings a batch. */
  lowestInMemory(): number | undefined {
    let low = this.pending[0]?.offset;
    for (const lane of this.held) {
      const o = lane.items[0]?.records[0]?.offset;
      if (o !== undefined && (low === undefined || o < low)) low = o;
    }
    return low;
  }

  /** Seed ranges now below the fetch's end are known as not owed; one that starts there moves the end past it. */
  private fold(): void {
    if (this.end === undefined) return;
    while (this.seed.length > 0) {
      const first = this.seed[0]!;
      if (first.until < this.end) this.seed.shift();
      else if (first.from <= this.end) {
        this.end = first.until + 1;
        this.seed.shift();
      } else break;
    }
  }
}

/** The index of the first element ≥ `value` in an ascending array. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
