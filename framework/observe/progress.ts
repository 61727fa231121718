/**
 * Whether each partition this member owns is moving, from instrumentation events alone: the
 * difference between "slow by policy" and "stuck".
 *
 * - caught up: every record fetched is done (committed past); a transaction's markers and open
 *   transactions keep the high watermark above that, so lag alone would never reach 0;
 * - progressing: a chunk runs (within the function's timeout), or a commit or a finished chunk
 *   came within `stuckAfterMs`;
 * - held: the failure policy keeps the partition on a record, and says so at each attempt (a retry
 *   scheduled, a function not reached, the destination or the schema registry not answering);
 * - stuck: fetched records wait and none of the above happened for `stuckAfterMs` (the poll
 *   interval, at least a minute): no chunk, no commit, no attempt the policy reported. Fetching
 *   the same records again and again without starting a chunk is stuck too.
 *
 * `/healthz` fails for a stuck partition only; `/metrics` shows each partition's seconds without
 * progress and what holds it.
 */
import type { TriggerSpec } from '../config/types.ts';
import type { Instrumentation } from './events.ts';

export type HoldReason = 'retrying' | 'not-invoked' | 'destination' | 'registry';
export type ProgressState = 'caught-up' | 'progressing' | 'held' | 'stuck';

export interface PartitionProgress {
  function: string;
  topic: string;
  group: string;
  partition: number;
  state: ProgressState;
  /** Records behind the high watermark at the last fetch or commit (for display: markers count). */
  lag: number;
  /** Seconds since the last commit or finished chunk while records wait (0 when caught up). */
  secondsWithoutProgress: number;
  held?: HoldReason;
  /** Why it is stuck, in words, when it is. */
  reason?: string;
}

interface Tracked {
  trigger: Limits;
  partition: number;
  highWatermark: number;
  /** One past the last record fetched: what is left to do is decided from it, not from the high watermark, which a transaction's commit marker or an open transaction keeps above any record a consumer can read. */
  fetchedEnd: number;
  committed: number | undefined;
  progressAt: number;
  chunkSince: number | undefined;
  hold: { reason: HoldReason; at: number } | undefined;
}

interface Limits {
  functionName: string;
  topic: string;
  group: string;
  timeoutMs: number;
  stuckAfterMs: number;
}

type TriggerLimits = Pick<TriggerSpec, 'functionName' | 'topic' | 'consumerGroupId' | 'timeoutMs' | 'maxPollIntervalMs'>;

/** How long a lagging partition may go without progress or a reported attempt before it counts as stuck. */
export function stuckAfterMs(t: Pick<TriggerSpec, 'maxPollIntervalMs'>): number {
  return Math.max(60_000, t.maxPollIntervalMs);
}

export class ProgressTracker {
  private readonly triggers = new Map<string, Limits>();
  private readonly partitions = new Map<string, Tracked>();
  private readonly off: Array<() => void>;

  constructor(triggers: readonly TriggerLimits[], events: Instrumentation, private readonly now = Date.now) {
    for (const t of triggers) {
      this.triggers.set(`${t.functionName}|${t.topic}`, { functionName: t.functionName, topic: t.topic, group: t.consumerGroupId, timeoutMs: t.timeoutMs, stuckAfterMs: stuckAfterMs(t) });
    }
    const hold = (reason: HoldReason) => (e: { functionName: string; topic: string; partition: number }) => {
      const p = this.tracked(e.functionName, e.topic, e.partition);
      if (p) p.hold = { reason, at: this.now() };
    };
    this.off = [
      events.on('poller.batch_received', (e) => {
        const p = this.tracked(e.functionName, e.topic, e.partition);
        if (!p) return;
        p.highWatermark = e.highWatermark;
        p.fetchedEnd = Math.max(p.fetchedEnd, e.lastOffset + 1);
        p.committed ??= e.firstOffset;
      }),
      events.on('poller.chunk_start', (e) => {
        const p = this.tracked(e.functionName, e.topic, e.partition);
        if (p) p.chunkSince = this.now();
      }),
      events.on('poller.chunk_end', (e) => {
        const p = this.tracked(e.functionName, e.topic, e.partition);
        if (!p) return;
        p.chunkSince = undefined;
        if (e.ok) this.progressed(p);
      }),
      events.on('poller.commit', (e) => {
        const p = this.tracked(e.functionName, e.topic, e.partition);
        if (!p) return;
        p.committed = e.offset;
        this.progressed(p);
      }),
      events.on('poller.retry_scheduled', (e) => hold(e.notInvoked ? 'not-invoked' : 'retrying')(e)),
      events.on('poller.destination_failed', hold('destination')),
      events.on('poller.registry_unavailable', hold('registry')),
      events.on('group.join', (e) => this.assigned(e.groupId, e.assignment)),
      events.on('group.rebalanced', (e) => this.assigned(e.groupId, e.assignment)),
    ];
  }

  /** Every owned partition of every trigger, with its state now. */
  snapshot(): PartitionProgress[] {
    const now = this.now();
    return [...this.partitions.values()].map((p) => describe(p, now));
  }

  stuck(): PartitionProgress[] {
    return this.snapshot().filter((p) => p.state === 'stuck');
  }

  close(): void {
    for (const f of this.off) f();
  }

  private progressed(p: Tracked): void {
    p.progressAt = this.now();
    p.hold = undefined;
  }

  /** A join replaces what this member owns of the group: kept partitions keep their state, the rest are forgotten. */
  private assigned(group: string, assignment: Record<string, number[]>): void {
    for (const t of this.triggers.values()) {
      if (t.group !== group) continue;
      const owned = new Set(assignment[t.topic] ?? []);
      for (const [key, p] of this.partitions) if (p.trigger === t && !owned.has(p.partition)) this.partitions.delete(key);
      for (const partition of owned) {
        const key = `${t.functionName}|${t.topic}|${partition}`;
        if (!this.partitions.has(key)) this.partitions.set(key, { trigger: t, partition, highWatermark: 0, fetchedEnd: 0, committed: undefined, progressAt: this.now(), chunkSince: undefined, hold: undefined });
      }
    }
  }

  private tracked(functionName: string, topic: string, partition: number): Tracked | undefined {
    return this.partitions.get(`${functionName}|${topic}|${partition}`);
  }
}

/** Pure: a partition's state at `now`. */
function describe(p: Tracked, now: number): PartitionProgress {
  const t = p.trigger;
  const lag = p.committed === undefined ? 0 : Math.max(0, p.highWatermark - p.committed);
  const waiting = p.committed === undefined ? 0 : Math.max(0, p.fetchedEnd - p.committed);
  const base = { function: t.functionName, topic: t.topic, group: t.group, partition: p.partition, lag };
  if (waiting === 0) return { ...base, state: 'caught-up', secondsWithoutProgress: 0 };
  const secondsWithoutProgress = Math.round((now - p.progressAt) / 1000);
  const withProgress = { ...base, secondsWithoutProgress };
  if (p.chunkSince !== undefined) {
    // A chunk ends by its timeout (the worker is terminated then); one that has not is stuck.
    if (now - p.chunkSince <= t.timeoutMs + t.stuckAfterMs) return { ...withProgress, state: 'progressing' };
    return { ...withProgress, state: 'stuck', reason: `a chunk started ${Math.round((now - p.chunkSince) / 1000)} s ago has not ended (function timeout ${t.timeoutMs / 1000} s)` };
  }
  if (p.hold && now - p.hold.at <= t.stuckAfterMs) return { ...withProgress, state: 'held', held: p.hold.reason };
  if (now - p.progressAt <= t.stuckAfterMs) return { ...withProgress, state: 'progressing' };
  return {
    ...withProgress,
    state: 'stuck',
    reason: `${waiting} record${waiting === 1 ? '' : 's'} fetched and waiting, and no chunk, commit or retry for ${secondsWithoutProgress} s (limit ${Math.round(t.stuckAfterMs / 1000)} s)`,
  };
}
