/**
 * Pure: the fault tier's oracle for queue mode (share groups). From what the handler recorded (each
 * invocation's member, start, end, and its records with their delivery counts), what each member's
 * poller heard back about its acknowledgements (`queue.ack_result`: applied, or refused or never
 * sent), and which members were killed -9 and when, it says:
 * - lost: a record of the log no invocation ended on;
 * - unsettled: a record no member's acceptance of was applied by the broker (still owed to someone);
 * - delivered after acceptance: a record invoked again after the broker had applied its acceptance
 *   (the broker lost state it had confirmed: what must never happen);
 * - every duplicate delivery's cause: the previous delivery's acknowledgement refused, never
 *   sent, or in flight when its request failed, its record released, or its member killed -9
 *   before its acceptance was applied; a duplicate with none of these is unexplained.
 */
import type { Invocation } from './oracle.ts';

export interface AckResult {
  member: string;
  at: number;
  partition: number;
  ranges: ReadonlyArray<{ from: number; until: number; type: 'gap' | 'accept' | 'release' | 'reject' }>;
  /** As `queue.ack_result` says: applied, refused, unsent, or unknown (in flight when its request failed). */
  outcome: 'applied' | 'refused' | 'unsent' | 'unknown';
  error?: string;
}

/** A share fetch's records handed to a member (`queue.acquired`): from which leader, exactly which offsets (inclusive ranges). */
export interface Acquisition {
  member: string;
  at: number;
  partition: number;
  leader: number;
  ranges: ReadonlyArray<{ from: number; until: number }>;
}

export interface Kill {
  member: string;
  at: number;
}

export interface QueueFigures {
  produced: number;
  /** Distinct records an invocation ended on. */
  processed: number;
  lost: string[];
  /** Records no member heard an acceptance of applied (but see `outcomeUnknown`). */
  unsettled: string[];
  /**
   * Records whose last acceptance may have been applied without its member hearing it: the member
   * was killed -9 after the invocation ended, or the request carrying it failed in flight. The
   * broker's own lag (DescribeShareGroupOffsets) says whether they were settled.
   */
  outcomeUnknown: number;
  deliveredAfterAcceptance: string[];
  /** Records the broker applied acceptances of for more than one delivery: one of them was for an acquisition it had already given away. */
  acceptedTwice: string[];
  /** Deliveries of a record beyond its first. */
  duplicates: number;
  causes: Record<string, number>;
  unexplained: string[];
  /** Deliveries whose delivery count was not above the previous delivery's (the broker's count lost across a failover). */
  countNotRaised: number;
}

export const QUEUE_CAUSES = {
  refused: 'acknowledgement refused by the broker (its lock had run out, or the partition\'s state moved)',
  notSent: 'acknowledgement never sent (its session was lost)',
  released: 'released by its member',
  unknown: 'acknowledgement in flight when its request failed (not applied, as the redelivery shows)',
  killed: 'held by a poller killed -9',
  leaderChanged: 'acquired from a leader that lost the partition before the acceptance was applied (the next leader read the share state without that acquisition)',
} as const;

const covers = (a: AckResult, partition: number, offset: number, type?: AckResult['ranges'][number]['type']) =>
  a.partition === partition && a.ranges.some((r) => r.from <= offset && offset <= r.until && (type === undefined || r.type === type));

export function analyseQueue(o: { logEnd: Map<number, number>; invocations: Invocation[]; acks: AckResult[]; kills: Kill[]; acquisitions: Acquisition[] }): QueueFigures {
  const byRecord = new Map<string, Array<{ inv: Invocation; count: number | undefined }>>();
  for (const inv of [...o.invocations].sort((a, b) => a.start - b.start)) {
    for (const [p, off, , count] of inv.records) {
      const key = `${p}:${off}`;
      const list = byRecord.get(key) ?? [];
      list.push({ inv, count });
      byRecord.set(key, list);
    }
  }
  const applied = new Map<string, number>(); // record -> when its first acceptance was applied
  const acceptedTwice: string[] = [];
  for (const a of [...o.acks].sort((x, y) => x.at - y.at)) {
    if (a.outcome !== 'applied') continue;
    for (const r of a.ranges) {
      if (r.type !== 'accept') continue;
      for (let off = r.from; off <= r.until; off++) {
        const key = `${a.partition}:${off}`;
        if (applied.has(key)) acceptedTwice.push(`${key}: acceptances applied at ${applied.get(key)} and at ${a.at} (${a.member})`);
        else applied.set(key, a.at);
      }
    }
  }
  let produced = 0;
  let processed = 0;
  const lost: string[] = [];
  const unsettled: string[] = [];
  let outcomeUnknown = 0;
  for (const [p, end] of o.logEnd) {
    for (let off = 0; off < end; off++) {
      produced++;
      const key = `${p}:${off}`;
      const deliveries = byRecord.get(key) ?? [];
      if (deliveries.some((d) => d.inv.end !== undefined)) processed++;
      else lost.push(key);
      if (applied.has(key)) continue;
      const last = deliveries.at(-1)?.inv;
      const killedAfter = last?.end !== undefined && o.kills.some((k) => k.member === last.member && k.at >= last.end!);
      const inFlight = last !== undefined && o.acks.some((a) => a.member === last.member && a.at >= last.start && a.outcome === 'unknown' && covers(a, p, off, 'accept'));
      if (killedAfter || inFlight) outcomeUnknown++;
      else unsettled.push(key);
    }
  }
  const causes: Record<string, number> = {};
  const unexplained: string[] = [];
  const deliveredAfterAcceptance: string[] = [];
  let duplicates = 0;
  let countNotRaised = 0;
  for (const [key, list] of byRecord) {
    const [p, off] = key.split(':').map(Number) as [number, number];
    const acceptedAt = applied.get(key);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const next = list[i]!;
      duplicates++;
      if (prev.count !== undefined && next.count !== undefined && next.count <= prev.count) countNotRaised++;
      if (acceptedAt !== undefined && acceptedAt < next.inv.start) {
        deliveredAfterAcceptance.push(`${key}: accepted at ${acceptedAt}, delivered again to ${next.inv.member} at ${next.inv.start} (delivery ${next.count})`);
        continue;
      }
      // prev's outcomes: from its start until its member's next delivery of the record (a later outcome is that delivery's).
      const again = list.slice(i).find((d) => d.inv.member === prev.inv.member)?.inv.start ?? Infinity;
      const cause = explain(prev.inv, next.inv, again, p, off, o.acks, o.kills) ?? leaderChange(prev.inv, next.inv, p, off, o.acquisitions);
      if (cause) causes[cause] = (causes[cause] ?? 0) + 1;
      else unexplained.push(`${key}: ${prev.inv.member} had it (delivery ${prev.count}, ${prev.inv.end === undefined ? 'never ended' : `ended at ${prev.inv.end}`}) and nothing says why ${next.inv.member} got it again at ${next.inv.start} (delivery ${next.count})`);
    }
  }
  return { produced, processed, lost, unsettled, outcomeUnknown, deliveredAfterAcceptance, acceptedTwice, duplicates, causes, unexplained, countNotRaised };
}

/** The node that handed the record to the invocation: the member's latest acquisition naming that offset before the invocation began. */
function leaderOf(inv: Invocation, p: number, off: number, acquisitions: Acquisition[]): number | undefined {
  let found: Acquisition | undefined;
  for (const a of acquisitions) {
    if (a.member !== inv.member || a.partition !== p || a.at > inv.start || (found && a.at < found.at)) continue;
    if (a.ranges.some((r) => r.from <= off && off <= r.until)) found = a;
  }
  return found?.leader;
}

/** Both deliveries' leaders known, and different: the first leader lost the partition (a failover) before the acceptance was applied. */
function leaderChange(prev: Invocation, next: Invocation, p: number, off: number, acquisitions: Acquisition[]): string | undefined {
  const before = leaderOf(prev, p, off, acquisitions);
  const after = leaderOf(next, p, off, acquisitions);
  return before !== undefined && after !== undefined && before !== after ? QUEUE_CAUSES.leaderChanged : undefined;
}

/**
 * Why the record came back after `prev`: what became of prev's acknowledgement of it (reported
 * before `until`, its member's next delivery of the record), or its member's kill before the
 * redelivery. An acceptance of prev that was applied explains nothing: the broker then handed out
 * a record it had given away.
 */
function explain(prev: Invocation, next: Invocation, until: number, p: number, off: number, acks: AckResult[], kills: Kill[]): string | undefined {
  const outcomes = acks.filter((a) => a.member === prev.member && a.at >= prev.start && a.at < until && covers(a, p, off));
  if (outcomes.some((a) => a.outcome === 'applied' && covers(a, p, off, 'accept'))) return undefined;
  const outcome = outcomes.sort((a, b) => a.at - b.at)[0];
  if (outcome?.outcome === 'refused') return QUEUE_CAUSES.refused;
  if (outcome?.outcome === 'unsent') return QUEUE_CAUSES.notSent;
  if (outcome?.outcome === 'unknown') return QUEUE_CAUSES.unknown;
  if (outcome && covers(outcome, p, off, 'release')) return QUEUE_CAUSES.released;
  const kill = kills.find((k) => k.member === prev.member && k.at >= prev.start && k.at <= next.start);
  if (kill && (!outcome || outcome.at > kill.at)) return QUEUE_CAUSES.killed;
  return undefined;
}

/** For the record `key` (`partition:offset`): each delivery of it, each acknowledgement outcome naming it, and the kills, in time order. */
export function queueTrace(key: string, invocations: Invocation[], acks: AckResult[], kills: Kill[], acquisitions: Acquisition[] = []): string[] {
  const [p, off] = key.split(':').map(Number) as [number, number];
  const lines: Array<[number, string]> = [];
  for (const a of acquisitions) if (a.partition === p && a.ranges.some((r) => r.from <= off && off <= r.until)) lines.push([a.at, `${a.member} acquired it from node ${a.leader}`]);
  for (const i of invocations) {
    const r = i.records.find(([rp, ro]) => rp === p && ro === off);
    if (r) lines.push([i.start, `${i.member} invoked it (delivery ${r[3]}, ${i.records.length} records), ${i.end === undefined ? 'never ended' : `ended at ${i.end}`}`]);
  }
  for (const a of acks) if (covers(a, p, off)) lines.push([a.at, `${a.member}: ${a.ranges.find((r) => r.from <= off && off <= r.until)!.type} ${a.outcome}${a.error === undefined ? '' : ` (${a.error})`}`]);
  for (const k of kills) lines.push([k.at, `${k.member} killed -9`]);
  return lines.sort((a, b) => a[0] - b[0]).map(([at, l]) => `${at} ${l}`);
}
