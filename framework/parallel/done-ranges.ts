/**
 * Pure: what a partition may commit when several of its chunks run at once. Kafka commits one
 * position (the next record to read), so the committed offset is the lowest offset not yet done;
 * what is done beyond it is described as ranges, which travel in the commit's metadata
 * (commit-metadata.ts) so that no owner invokes them again.
 *
 * "Done" is everything the partition no longer owes: invoked successfully, sent to the on-failure
 * destination, filtered out, or an offset with no record at all (a compacted gap, a transaction
 * marker). So the state is the set of offsets still outstanding among what was fetched, and
 * everything else below the fetch's end counts as done.
 */

/** Offsets `from` to `until`, both included. */
export interface OffsetRange {
  from: number;
  until: number;
}

export interface Committable {
  /** The offset to commit: the lowest outstanding one, or `end` when none is. */
  next: number;
  /** Done offsets above `next` and below `end`, sorted and disjoint (empty when nothing is done beyond it). */
  doneBeyond: OffsetRange[];
}

/**
 * `outstanding`: the offsets fetched and not done, ascending and below `end`; `end`: the offset
 * after the last one fetched (where fetching goes on).
 */
export function committable(outstanding: readonly number[], end: number): Committable {
  const next = outstanding[0] ?? end;
  const doneBeyond: OffsetRange[] = [];
  for (let i = 0; i < outstanding.length; i++) {
    const from = outstanding[i]! + 1;
    const until = (outstanding[i + 1] ?? end) - 1;
    if (until >= from) doneBeyond.push({ from, until });
  }
  return { next, doneBeyond };
}

/** The ranges that sorted, distinct offsets form. */
export function rangesOf(offsets: readonly number[]): OffsetRange[] {
  const ranges: OffsetRange[] = [];
  for (const o of offsets) {
    const last = ranges[ranges.length - 1];
    if (last && o === last.until + 1) last.until = o;
    else ranges.push({ from: o, until: o });
  }
  return ranges;
}

/** Whether `offset` lies in one of `ranges` (sorted, disjoint): a binary search. */
export function inRanges(ranges: readonly OffsetRange[], offset: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const r = ranges[mid]!;
    if (offset < r.from) hi = mid - 1;
    else if (offset > r.until) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The ranges cut to offsets at most `last` (what fits the metadata's window). */
export function clampRanges(ranges: readonly OffsetRange[], last: number): OffsetRange[] {
  const kept: OffsetRange[] = [];
  for (const r of ranges) {
    if (r.from > last) break;
    kept.push({ from: r.from, until: Math.min(r.until, last) });
  }
  return kept;
}
