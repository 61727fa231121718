/**
 * Pure: from what the handler recorded (each invocation's member, start, end and records) and
 * what each member's poller reported (commits, refused commits, consumer stops), the figures a
 * fault test asserts: records lost, duplicate invocations each with its cause, and every
 * interval in which two members were inside invocations of the same partition.
 */
export interface Invocation {
  id: string;
  member: string;
  start: number;
  /** Undefined when the invocation never ended (its process stopped under it). */
  end?: number;
  /** Queue mode adds each record's delivery count. */
  records: Array<[partition: number, offset: number, value: string, deliveryCount?: number]>;
}

export interface PollerEvent {
  member: string;
  at: number;
  /** `poller.commit_metadata`: a parallel member built a partition's state from the group's commit (for traces only). */
  name: 'poller.commit' | 'poller.commit_refused' | 'group.crash' | 'trigger.consumer_stopped' | 'group.join' | 'poller.commit_metadata';
  partition?: number;
  offset?: number;
  /** A parallel member's commit (parallelizationFactor > 1): the ranges beyond `offset` it marked done. */
  done?: ReadonlyArray<{ from: number; until: number }>;
  reason?: string;
}

/** The commit (made or refused) says the record at `offset` is done: below its offset, or in its done ranges. */
export const covers = (e: PollerEvent, offset: number): boolean =>
  (e.offset ?? -1) > offset || (e.done ?? []).some((r) => r.from <= offset && offset <= r.until);

export interface Overlap {
  partition: number;
  a: { member: string; start: number; end?: number };
  b: { member: string; start: number; end?: number };
}

export interface Figures {
  produced: number;
  /** Distinct records in an invocation that ended. */
  processed: number;
  lost: string[];
  /** Invocations of a record beyond its first. */
  duplicates: number;
  causes: Record<string, number>;
  /** Each re-invocation no recorded event explains: `partition:offset` with what was seen. */
  unexplained: string[];
  overlaps: Overlap[];
  /** The longest time after `from` in which a partition saw no invocation start (before its last one). */
  longestStallMs: number;
  /** The most invocations of one partition one member had in flight at once (parallelizationFactor > 1 runs them side by side). */
  widest: number;
}

export const CAUSES = {
  refused: 'commit refused',
  notOwned: 'commit not sent: partition no longer owned',
  stopped: 'consumer stopped before its commit',
  unfinished: 'in flight when its process stopped',
  rejoined: 'committed after its member rejoined in flight (kafkajs had already read the committed offset)',
} as const;

export function analyse(o: { logEnd: Map<number, number>; invocations: Invocation[]; events: PollerEvent[]; from?: number }): Figures {
  const byRecord = new Map<string, Invocation[]>();
  for (const inv of [...o.invocations].sort((a, b) => a.start - b.start)) {
    for (const [p, off] of inv.records) {
      const key = `${p}:${off}`;
      const list = byRecord.get(key);
      if (list) list.push(inv);
      else byRecord.set(key, [inv]);
    }
  }
  let produced = 0;
  let processed = 0;
  const lost: string[] = [];
  for (const [p, end] of o.logEnd) {
    for (let off = 0; off < end; off++) {
      produced++;
      if (byRecord.get(`${p}:${off}`)?.some((i) => i.end !== undefined)) processed++;
      else lost.push(`${p}:${off}`);
    }
  }
  const causes: Record<string, number> = {};
  const unexplained: string[] = [];
  let duplicates = 0;
  for (const [key, list] of byRecord) {
    const [p, off] = key.split(':').map(Number) as [number, number];
    for (let i = 1; i < list.length; i++) {
      duplicates++;
      const cause = explain(list[i - 1]!, list[i]!, p, off, o.events);
      if (cause.startsWith('unexplained')) unexplained.push(`${key} ${cause}`);
      else causes[cause] = (causes[cause] ?? 0) + 1;
    }
  }
  return { produced, processed, lost, duplicates, causes, unexplained, overlaps: overlaps(o.invocations), longestStallMs: longestStall(o.invocations, o.from ?? 0), widest: widest(o.invocations) };
}

/** Why `next` invoked the record (partition p, offset off) again after `prev` had. */
function explain(prev: Invocation, next: Invocation, p: number, off: number, events: PollerEvent[]): string {
  const mine = events.filter((e) => e.member === prev.member && e.at >= prev.start && e.at <= next.start);
  const onPartition = mine.filter((e) => e.partition === p && covers(e, off));
  const commit = onPartition.find((e) => e.name === 'poller.commit');
  if (commit) {
    // kafkajs rejoins from inside its fetch loop while a chunk runs; the rejoin then reads the
    // committed offset before that chunk's commit lands, and fetches the chunk again.
    // Only that join's stale read: a later join before the record ran again read the commit.
    const rejoin = mine.find((e) => e.name === 'group.join' && e.at <= commit.at);
    const readSince = mine.some((e) => e.name === 'group.join' && e.at > commit.at);
    if (rejoin && !readSince && next.member === prev.member) return CAUSES.rejoined;
    return `unexplained: ${prev.member} committed past it, then ${next.member} invoked it again`;
  }
  // The outcome of prev's commit past the record may be reported after next began: a commit sent to a
  // paused coordinator is refused only when it answers again. Its first outcome counts, whenever it came.
  const outcome = events.find((e) => e.member === prev.member && e.at >= prev.start && e.partition === p && covers(e, off) && (e.name === 'poller.commit' || e.name === 'poller.commit_refused'));
  const refused = outcome?.name === 'poller.commit_refused' ? outcome : onPartition.find((e) => e.name === 'poller.commit_refused');
  if (refused) return refused.reason === 'not-owned' ? CAUSES.notOwned : CAUSES.refused;
  if (mine.some((e) => e.name === 'group.crash' || e.name === 'trigger.consumer_stopped')) return CAUSES.stopped;
  if (prev.end === undefined) return CAUSES.unfinished;
  return `unexplained: ${prev.member} ended it at ${prev.end} and reported no commit for it before ${next.member} began at ${next.start}`;
}

/**
 * What a failed run needs to find a duplicate's cause: for the record `key` (`partition:offset`),
 * every invocation of it and, from the first one's start to the last one's, each member's joins,
 * stops and commits of its partition (a commit's done ranges when it had any).
 */
export function traceOf(key: string, invocations: Invocation[], events: PollerEvent[]): string[] {
  const [p, off] = key.split(':').map(Number) as [number, number];
  const runs = invocations.filter((i) => i.records.some(([rp, ro]) => rp === p && ro === off)).sort((a, b) => a.start - b.start);
  if (runs.length === 0) return [];
  const from = runs[0]!.start - 5_000;
  const until = runs.at(-1)!.start;
  const t0 = runs[0]!.start;
  const at = (t: number) => `${t - t0 >= 0 ? '+' : ''}${t - t0} ms`;
  const lines = runs.map((i) => {
    const mine = i.records.filter(([rp]) => rp === p).map(([, o]) => o);
    return `${at(i.start)} ${i.member} invoked ${p}:[${Math.min(...mine)}..${Math.max(...mine)}] (${mine.length} records), ${i.end === undefined ? 'never ended' : `ended ${at(i.end)}`}`;
  });
  for (const e of events) {
    if (e.at < from || e.at > until) continue;
    if (e.partition !== undefined && e.partition !== p) continue;
    const done = e.done?.length ? ` done ${e.done.map((r) => `${r.from}-${r.until}`).join(',')}` : '';
    lines.push(`${at(e.at)} ${e.member} ${e.name}${e.offset !== undefined ? ` ${e.offset}` : ''}${done}${e.reason ? ` (${e.reason})` : ''}`);
  }
  return lines.sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}

function overlaps(invocations: Invocation[]): Overlap[] {
  const found: Overlap[] = [];
  const byPartition = new Map<number, Invocation[]>();
  for (const inv of invocations) {
    for (const p of new Set(inv.records.map(([partition]) => partition))) {
      const list = byPartition.get(p);
      if (list) list.push(inv);
      else byPartition.set(p, [inv]);
    }
  }
  for (const [partition, list] of byPartition) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      for (let j = i + 1; j < list.length && list[j]!.start < (a.end ?? Infinity); j++) {
        const b = list[j]!;
        if (b.member !== a.member) found.push({ partition, a: span(a), b: span(b) });
      }
    }
  }
  return found;
}

function widest(invocations: Invocation[]): number {
  const edges = new Map<string, Array<[at: number, step: number]>>();
  for (const inv of invocations) {
    for (const p of new Set(inv.records.map(([partition]) => partition))) {
      const key = `${inv.member}:${p}`;
      const list = edges.get(key) ?? [];
      list.push([inv.start, 1], [inv.end ?? Infinity, -1]);
      edges.set(key, list);
    }
  }
  let most = 0;
  for (const list of edges.values()) {
    // Ends before starts at the same instant: back-to-back invocations are not side by side.
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let now = 0;
    for (const [, step] of list) most = Math.max(most, (now += step));
  }
  return most;
}

const span = (i: Invocation) => ({ member: i.member, start: i.start, ...(i.end !== undefined ? { end: i.end } : {}) });

function longestStall(invocations: Invocation[], from: number): number {
  const starts = new Map<number, number[]>();
  for (const inv of invocations) {
    for (const p of new Set(inv.records.map(([partition]) => partition))) {
      const list = starts.get(p);
      if (list) list.push(inv.start);
      else starts.set(p, [inv.start]);
    }
  }
  let longest = 0;
  for (const list of starts.values()) {
    list.sort((a, b) => a - b);
    let previous = from;
    for (const at of list) {
      if (at < from) continue;
      longest = Math.max(longest, at - previous);
      previous = at;
    }
  }
  return longest;
}
