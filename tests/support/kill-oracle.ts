/**
 * The fault oracle of a poller killed mid-run under parallelizationFactor (issue 28): from what the
 * killed process's handler saw and finished, the group's last commit at the kill (its offset and the
 * done ranges of its metadata), and what the next process's handler saw and finished, it says what
 * was lost, what was invoked again though the commit marked it done, and explains every duplicate.
 */
import { recordsOf, type Seen } from './harness.ts';
import { keyOf } from './parallel-oracle.ts';

/** What a poller process's handler did: every invocation it started, and the requestIds that returned. */
export interface ProcessRecord {
  seen: Seen[];
  completed: string[];
}

export interface CommitAtKill {
  offset: number;
  ranges: Array<{ from: number; until: number }>;
}

export interface KillReport {
  /** Offsets the commit marked done (below its offset, or in its ranges), of those produced. */
  doneAtKill: number;
  /** Invocations of the killed process that had started and not returned, and their records. */
  inFlight: { invocations: number; records: number[] };
  /** Records of the killed process's invocations that returned, but that the commit did not mark done. */
  finishedUncommitted: number[];
  /** Records invoked by both processes. */
  duplicates: number[];
  /** No successful invocation of either process held them. */
  lost: number[];
  /** Marked done by the commit, though no invocation of the killed process that held them returned. */
  doneNotFinished: number[];
  /** Marked done by the commit, and invoked again by the next process. */
  doneInvokedAgain: number[];
  /** Not marked done by the commit, and never invoked by the next process. */
  owedNotInvoked: number[];
  /** Invoked twice by one process (no invocation fails here, so none should be). */
  twiceInOneProcess: string[];
  /** The next process invoked a key's record below one the commit marked done of the same key. */
  resumedBelowDone: string[];
}

export function killReport(count: number, killed: ProcessRecord, commit: CommitAtKill, next: ProcessRecord): KillReport {
  const isDone = (o: number) => o < commit.offset || commit.ranges.some((r) => o >= r.from && o <= r.until);
  const produced = Array.from({ length: count }, (_, o) => o);
  const offsetsOf = (seen: Seen[]) => seen.flatMap(recordsOf).map((r) => r.offset);
  const finishedOf = (p: ProcessRecord) => new Set(offsetsOf(p.seen.filter((s) => p.completed.includes(s.requestId))));
  const killedInvoked = new Set(offsetsOf(killed.seen));
  const nextInvoked = new Set(offsetsOf(next.seen));
  const killedFinished = finishedOf(killed);
  const nextFinished = finishedOf(next);
  const unfinished = killed.seen.filter((s) => !killed.completed.includes(s.requestId));

  const twiceInOneProcess = [killed, next].flatMap((p, i) => {
    const offsets = offsetsOf(p.seen);
    return offsets.filter((o, j) => offsets.indexOf(o) !== j).map((o) => `${i === 0 ? 'killed' : 'next'}: ${o}`);
  });
  const highestDone = new Map<string, number>();
  for (const r of killed.seen.flatMap(recordsOf)) if (isDone(r.offset)) highestDone.set(keyOf(r), Math.max(highestDone.get(keyOf(r)) ?? -1, r.offset));
  const resumedBelowDone = next.seen.flatMap(recordsOf).filter((r) => r.offset < (highestDone.get(keyOf(r)) ?? -1)).map((r) => `key ${keyOf(r)}: ${r.offset} below ${highestDone.get(keyOf(r))}`);

  return {
    doneAtKill: produced.filter(isDone).length,
    inFlight: { invocations: unfinished.length, records: offsetsOf(unfinished) },
    finishedUncommitted: [...killedFinished].filter((o) => !isDone(o)),
    duplicates: [...killedInvoked].filter((o) => nextInvoked.has(o)),
    lost: produced.filter((o) => !killedFinished.has(o) && !nextFinished.has(o)),
    doneNotFinished: produced.filter((o) => isDone(o) && !killedFinished.has(o)),
    doneInvokedAgain: [...nextInvoked].filter(isDone),
    owedNotInvoked: produced.filter((o) => !isDone(o) && !nextInvoked.has(o)),
    twiceInOneProcess,
    resumedBelowDone,
  };
}

export const ascending = (offsets: Iterable<number>) => [...offsets].sort((a, b) => a - b);
