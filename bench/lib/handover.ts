/**
 * Pure: what a membership change did to the partitions' processing, from each member's
 * invocations and joins (bench/scenarios/rebalance.ts). A partition that kept its owner should
 * not stop at all with an incremental protocol; one that moved stops from its old owner's last
 * invocation to its new owner's first. Duplicates are records invoked (successfully) more than once.
 */
import type { Join } from './child.ts';
import type { InvocationSpan } from './poller-process.ts';

export interface MemberTimeline {
  name: string;
  joins: Join[];
  invocations: InvocationSpan[];
  /** When the member left the group (its process ended); it owns nothing from then on. */
  leftAt?: number;
}

export interface Handover {
  /** Partitions with the same owner before and after. */
  kept: number[];
  moved: number[];
  /** The longest wait between two invocations of a kept partition around the change (ms). */
  keptGapMs: number;
  /** The longest wait from a moved partition's last invocation before to its first after (ms). */
  movedGapMs: number;
  /** From the change to the last assignment any member received because of it (ms). */
  settleMs: number;
}

/** Which member owned each partition at `at`, by each member's last join before it. */
export function ownersAt(members: MemberTimeline[], at: number): Map<number, string> {
  const owners = new Map<number, string>();
  for (const m of members) {
    if (m.leftAt !== undefined && m.leftAt <= at) continue;
    const last = m.joins.filter((j) => j.at <= at).at(-1);
    for (const ps of Object.values(last?.assignment ?? {})) for (const p of ps) owners.set(p, m.name);
  }
  return owners;
}

/**
 * The change began at `from`; `until` is when the next one began (or the run ended). The kept
 * partitions' gaps count only waits that touch [from, until).
 */
export function handover(members: MemberTimeline[], from: number, until: number): Handover {
  const before = ownersAt(members, from);
  const after = ownersAt(members, until - 1);
  const partitions = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  const kept = partitions.filter((p) => before.get(p) !== undefined && before.get(p) === after.get(p));
  const moved = partitions.filter((p) => !kept.includes(p));
  const spans = (p: number) => members.flatMap((m) => m.invocations.filter((i) => i.partition === p && i.ok).map((i) => ({ ...i, member: m.name }))).sort((a, b) => a.start - b.start);
  let keptGapMs = 0;
  for (const p of kept) {
    const list = spans(p);
    for (let i = 1; i < list.length; i++) {
      const [prev, next] = [list[i - 1]!, list[i]!];
      if (next.start >= from && prev.end < until) keptGapMs = Math.max(keptGapMs, next.start - prev.end);
    }
  }
  let movedGapMs = 0;
  for (const p of moved) {
    const list = spans(p);
    const last = list.filter((s) => s.member === before.get(p) && s.start < from).at(-1);
    const first = list.find((s) => s.member === after.get(p) && s.start >= from);
    if (first) movedGapMs = Math.max(movedGapMs, first.start - (last?.end ?? from));
  }
  const joinsAfter = members.flatMap((m) => m.joins.filter((j) => j.at >= from && j.at < until).map((j) => j.at));
  return { kept, moved, keptGapMs, movedGapMs, settleMs: joinsAfter.length ? Math.max(...joinsAfter) - from : 0 };
}

/** Records invoked successfully more than once, and records of the log no successful invocation covered. */
export function accounting(members: MemberTimeline[], logEnd: Map<number, number>): { duplicates: number; lost: number } {
  const seen = new Map<string, number>();
  for (const m of members) {
    for (const i of m.invocations) {
      if (!i.ok) continue;
      for (let o = i.first; o <= i.last; o++) seen.set(`${i.partition}:${o}`, (seen.get(`${i.partition}:${o}`) ?? 0) + 1);
    }
  }
  let duplicates = 0;
  for (const n of seen.values()) duplicates += n - 1;
  let lost = 0;
  for (const [p, end] of logEnd) for (let o = 0; o < end; o++) if (!seen.has(`${p}:${o}`)) lost++;
  return { duplicates, lost };
}
