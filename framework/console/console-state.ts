/**
 * What the console's overview shows, from the poller's instrumentation events alone (the way the
 * terminal view and /metrics learn it): each trigger's state as /healthz tells it, each owned
 * partition's committed offset, log end and lag with its last ten minutes, the chunks in flight
 * with the deadline they were cut for, throughput per five seconds, the group's membership
 * timeline and what went to the on-failure destinations; for a queue trigger, per partition the
 * share group's backlog and what this poller acquired and acknowledged. Bounded: 120 buckets per series, 200
 * timeline entries, 200 destination sends per function.
 */
import type { TriggerSpec } from '../config/types.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { HealthTracker, TriggerHealth } from '../observe/health.ts';
import type { PartitionProgress, ProgressTracker } from '../observe/progress.ts';
import type { ChunkEnded, ChunkStarted } from '../poller/chunk-watcher.ts';
import { ChunksInFlight } from './chunks-in-flight.ts';
import type { ConsoleMode, FailureDestination, Overview, PartitionView, ThroughputSample, TimelineEntry, TriggerStatus, TriggerView } from './api-types.ts';

export const BUCKET_MS = 5_000;
const BUCKETS = 120;
const TIMELINE = 200;
const SENT = 200;

type Sent = FailureDestination['sent'][number];

interface TriggerState {
  spec: TriggerSpec;
  memberId?: string;
  committed: Map<number, number>;
  logEnd: Map<number, number>;
  /** The group's commits and the log ends as last read from the cluster (while a page is open), for partitions this process has not fetched or committed. */
  read: Map<number, { committed: number; logEnd: number }>;
  /** The chunks in flight by partition. */
  inFlight: Map<number, ChunksInFlight>;
  /** Closed buckets, oldest first; the one being filled is the totals since `counted`. */
  throughput: ThroughputSample[];
  /** When the bucket being filled began, and the totals then. */
  counted: { t: number; invocations: number; records: number; failed: number };
  lagHistory: Map<number, number[]>;
  totals: { invocations: number; records: number; failed: number };
  sent: Sent[];
  /** Queue mode: the share group's backlog per partition at its last reading, and this poller's acquisitions and acknowledgements. */
  share?: { lag: Map<number, number>; counts: Map<number, NonNullable<PartitionView['queue']>> };
}

export interface ConsoleStateOptions {
  service: string;
  stage: string;
  mode: ConsoleMode;
  historySize: number;
  /** The history's count of successful invocations it did not list, per function, and the rates it lists at with no page open and with one. */
  unlisted: () => Record<string, number>;
  eventsPerSecond: number;
  listedPerSecond: number;
  triggers: TriggerSpec[];
  events: Instrumentation;
  health: HealthTracker;
  progress: Pick<ProgressTracker, 'snapshot'>;
  now?: () => number;
}

export class ConsoleState {
  /** By function, then topic: found without building a key on every event (the firehose's thousands a second). */
  private readonly byFunction = new Map<string, Map<string, TriggerState>>();
  private readonly byGroup = new Map<string, TriggerState>();
  private readonly timeline: TimelineEntry[] = [];
  private readonly off: Array<() => void>;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly startedAt: number;

  constructor(private readonly o: ConsoleStateOptions) {
    this.now = o.now ?? Date.now;
    this.startedAt = this.now();
    for (const spec of o.triggers) {
      const s: TriggerState = {
        spec, committed: new Map(), logEnd: new Map(), read: new Map(), inFlight: new Map(), throughput: [], counted: { t: this.bucketStart(), invocations: 0, records: 0, failed: 0 }, lagHistory: new Map(), totals: { invocations: 0, records: 0, failed: 0 }, sent: [],
        ...(spec.consumptionMode === 'queue' ? { share: { lag: new Map(), counts: new Map() } } : {}),
      };
      const topics = this.byFunction.get(spec.functionName) ?? new Map<string, TriggerState>();
      this.byFunction.set(spec.functionName, topics.set(spec.topic, s));
      this.byGroup.set(spec.consumerGroupId, s);
    }
    const of = (e: { functionName: string; topic: string }) => this.of(e.functionName, e.topic);
    const mark = (group: string, kind: TimelineEntry['kind'], text: string) => {
      const s = this.byGroup.get(group);
      if (!s) return;
      this.timeline.unshift({ t: this.now(), function: s.spec.functionName, group, kind, text });
      if (this.timeline.length > TIMELINE) this.timeline.pop();
    };
    const partitions = (a: Record<string, number[]>) => Object.entries(a).filter(([, ps]) => ps.length).map(([t, ps]) => `${t}[${ps.join(',')}]`).join(' ') || 'no partitions';
    const e = o.events;
    this.off = [
      e.on('poller.batch_received', (b) => void of(b)?.logEnd.set(b.partition, b.highWatermark)),
      e.on('poller.commit', (c) => void of(c)?.committed.set(c.partition, c.offset)),
      e.on('queue.lag', (l) => {
        const share = of(l)?.share;
        if (!share) return;
        for (const p of l.partitions) if (p.lag !== null) share.lag.set(p.partition, p.lag);
        // A partition the topic no longer has leaves the card (its lag, its history, its counts).
        const listed = new Set(l.partitions.map((p) => p.partition));
        for (const partition of [...share.lag.keys()].filter((p) => !listed.has(p))) {
          share.lag.delete(partition);
          share.counts.delete(partition);
          of(l)!.lagHistory.delete(partition);
        }
      }),
      e.on('queue.acquired', (a) => {
        const c = this.shareCounts(of(a), a.partition);
        if (!c) return;
        c.acquired += a.count;
        c.redelivered += a.redelivered;
      }),
      e.on('queue.acknowledged', (a) => {
        const c = this.shareCounts(of(a), a.partition);
        if (c) c[a.type === 'accept' ? 'accepted' : a.type === 'release' ? 'released' : 'rejected'] += a.count;
      }),
      e.on('poller.sent_to_destination', (d) => {
        const s = of(d);
        if (!s) return;
        s.sent.unshift({ t: this.now(), topic: d.topic, partition: d.partition, offsets: d.offsets, reason: d.reason, attempts: d.attempts });
        if (s.sent.length > SENT) s.sent.pop();
      }),
      e.on('group.join', (j) => {
        const s = this.byGroup.get(j.groupId);
        if (s) s.memberId = j.memberId;
        mark(j.groupId, 'joined', `joined as ${j.isLeader ? 'leader' : 'member'} ${j.memberId}, assigned ${partitions(j.assignment)} (${j.durationMs} ms)`);
      }),
      e.on('group.rebalance_detected', (r) =>
        r.partitions
          ? mark(r.groupId, 'revoked', `partition${r.partitions.length === 1 ? '' : 's'} ${r.partitions.join(',')} revoked (${r.where}): in-flight chunks finish and commit`)
          : mark(r.groupId, 'rebalancing', `rebalance begun (seen by ${r.where}): finishing in-flight chunks before rejoining`),
      ),
      e.on('group.rebalanced', (r) => mark(r.groupId, 'rebalanced', r.revoked ? `handed back ${r.revoked.join(',')} after ${r.durationMs} ms` : `rejoined ${r.durationMs} ms after the rebalance began, assigned ${partitions(r.assignment)}`)),
      e.on('trigger.consumer_stopped', (c) => mark(c.groupId, 'stopped', `consumer stopped (${c.error}); a new member starts in ${c.restartInMs} ms`)),
      e.on('trigger.consumer_restarted', (c) => mark(c.groupId, 'restarted', `a new member runs (restart ${c.restarts})`)),
      e.on('trigger.failed', (c) => mark(c.groupId, 'failed', `given up after ${c.restarts} restarts: ${c.error}`)),
    ];
    // Lag is sampled once a bucket, whether or not a page is open: a few numbers per partition.
    this.schedule();
  }

  /**
   * The sampler runs at each bucket's boundary, the next one reckoned from the clock every time: an
   * interval from the console's start would cut the buckets at its own phase (what ended 3 s into a
   * bucket shown in the one before), and, drifting, skip a bucket or leave one spanning two.
   */
  private schedule(): void {
    const now = this.now();
    this.timer = setTimeout(() => {
      this.schedule();
      this.sample();
    }, Math.floor(now / BUCKET_MS) * BUCKET_MS + BUCKET_MS - now);
    this.timer.unref();
  }

  /** A chunk started (the console's chunk watcher): in flight on its partition until it ends. */
  chunkStarted(c: ChunkStarted): void {
    const s = this.of(c.functionName, c.topic);
    if (!s) return;
    let chunks = s.inFlight.get(c.partition);
    if (!chunks) s.inFlight.set(c.partition, (chunks = new ChunksInFlight()));
    chunks.started(c, this.now());
  }

  /** A chunk's attempt ended: out of flight, and counted in the throughput. */
  chunkEnded(c: ChunkEnded): void {
    const s = this.of(c.functionName, c.topic);
    if (!s) return;
    s.inFlight.get(c.partition)?.ended(c);
    // Totals only: the buckets are cut from them every BUCKET_MS (sample()), not per invocation.
    s.totals.invocations++;
    s.totals.records += c.count;
    // Failed: the invocation, or records of it by its own answer (partly, or unreadable: all).
    if (!c.ok || c.reportedFailedFrom !== undefined || c.malformedResponse !== undefined) s.totals.failed++;
  }

  overview(): Overview {
    // Read once for every trigger.
    const health = this.o.health.triggers();
    const progress = this.o.progress.snapshot();
    const topics = new Set<string>();
    for (const s of this.all()) {
      topics.add(s.spec.topic);
      const d = s.spec.failure.onFailure;
      if (d?.kind === 'kafka') topics.add(d.topic);
    }
    return {
      service: this.o.service, stage: this.o.stage, mode: this.o.mode, now: this.now(), startedAt: this.startedAt, historySize: this.o.historySize,
      unlisted: this.o.unlisted(), eventsPerSecond: this.o.eventsPerSecond, listedPerSecond: this.o.listedPerSecond,
      triggers: this.all().map((s) => this.view(s, health, progress)), timeline: [...this.timeline], topics: [...topics],
    };
  }

  /** Offsets read from the cluster for a trigger's partitions (the group's commits, -1 for none, and the log ends). */
  noteOffsets(functionName: string, topic: string, offsets: ReadonlyArray<{ partition: number; committed: number; logEnd: number }>): void {
    const s = this.of(functionName, topic);
    if (s) for (const o of offsets) s.read.set(o.partition, { committed: o.committed, logEnd: o.logEnd });
  }

  /** What this process sent to the destination of `functionName`'s trigger on `topic`, newest first. */
  sentBy(functionName: string, topic: string): Sent[] {
    return [...(this.of(functionName, topic)?.sent ?? [])];
  }

  close(): void {
    clearTimeout(this.timer);
    for (const f of this.off) f();
  }

  private view(s: TriggerState, everyHealth: TriggerHealth[], everyPartition: PartitionProgress[]): TriggerView {
    const t = s.spec;
    const health = everyHealth.find((h) => h.group === t.consumerGroupId);
    const progress = everyPartition.filter((p) => p.group === t.consumerGroupId && p.topic === t.topic);
    // A share group's members share every partition: a queue trigger shows each its backlog was read for (none before the first reading).
    const owned = s.share ? new Set(s.share.lag.keys()) : new Set([...(health?.partitions ?? []), ...progress.map((p) => p.partition)]);
    const partitions: PartitionView[] = [...owned].sort((a, b) => a - b).map((partition) => {
      const p = progress.find((x) => x.partition === partition);
      if (s.share) return this.queuePartition(s, s.share, partition, p);
      // This process's own events first; what was read from the cluster for a partition it has not touched since its start.
      const read = s.read.get(partition);
      const committed = s.committed.get(partition) ?? (read && read.committed >= 0 ? read.committed : undefined);
      const logEnd = Math.max(s.logEnd.get(partition) ?? -1, read?.logEnd ?? -1);
      const lag = s.committed.has(partition) || committed === undefined ? (p?.lag ?? 0) : Math.max(0, logEnd - committed);
      return {
        partition, state: p?.state ?? 'caught-up', ...(p?.held ? { held: p.held } : {}), ...(p?.reason ? { reason: p.reason } : {}),
        ...(committed !== undefined ? { committed } : {}), ...(logEnd >= 0 ? { logEnd } : {}),
        // The samples of the past buckets, then the lag now.
        lag, lagHistory: [...(s.lagHistory.get(partition) ?? []), lag].slice(-BUCKETS),
        inFlight: s.inFlight.get(partition)?.view(t) ?? [],
      };
    });
    const stuck = partitions.find((p) => p.state === 'stuck');
    const held = partitions.find((p) => p.state === 'held');
    const status: TriggerStatus =
      !health || health.state === 'starting' ? 'starting'
      : health.state === 'joined' ? (stuck ? 'stalled' : held ? 'held' : 'running')
      : health.state;
    const reason =
      status === 'stalled' ? `partition ${stuck!.partition}: ${stuck!.reason}`
      : status === 'held' ? `partition ${held!.partition} waits: ${HELD[held!.held ?? 'retrying']}`
      : health?.lastError && status !== 'running' ? health.lastError : undefined;
    return {
      function: t.functionName, topic: t.topic, group: t.consumerGroupId, engine: t.engine, consumptionMode: s.share ? 'queue' : 'stream', status, ...(reason ? { reason } : {}),
      timeoutMs: t.timeoutMs, maxPollIntervalMs: t.maxPollIntervalMs, batchSize: t.batchSize, parallelizationFactor: t.parallelizationFactor ?? 1,
      ...(t.failure.onFailure ? { destination: t.failure.onFailure.uri } : {}), ...(s.memberId ? { memberId: s.memberId } : {}),
      restarts: health?.restarts ?? 0, partitions, throughput: [...s.throughput, this.filling(s)], totals: { ...s.totals },
    };
  }

  private queuePartition(s: TriggerState, share: NonNullable<TriggerState['share']>, partition: number, p: PartitionProgress | undefined): PartitionView {
    const lag = share.lag.get(partition) ?? 0;
    const inFlight = s.inFlight.get(partition)?.view(s.spec) ?? [];
    return {
      partition, state: p?.state === 'held' || p?.state === 'stuck' ? p.state : inFlight.length > 0 ? 'progressing' : lag > 0 ? 'progressing' : 'caught-up',
      ...(p?.held ? { held: p.held } : {}), ...(p?.reason ? { reason: p.reason } : {}),
      lag, lagHistory: [...(s.lagHistory.get(partition) ?? []), lag].slice(-BUCKETS), inFlight,
      queue: { ...(share.counts.get(partition) ?? { acquired: 0, redelivered: 0, accepted: 0, released: 0, rejected: 0 }) },
    };
  }

  private shareCounts(s: TriggerState | undefined, partition: number): NonNullable<PartitionView['queue']> | undefined {
    if (!s?.share) return undefined;
    let c = s.share.counts.get(partition);
    if (!c) s.share.counts.set(partition, (c = { acquired: 0, redelivered: 0, accepted: 0, released: 0, rejected: 0 }));
    return c;
  }

  /** The bucket being filled: what the totals grew by since it began. */
  private filling(s: TriggerState): ThroughputSample {
    const c = s.counted;
    return { t: c.t, records: s.totals.records - c.records, invocations: s.totals.invocations - c.invocations, failed: s.totals.failed - c.failed };
  }

  /** The bucket being filled closes; the next begins. */
  private cut(s: TriggerState): void {
    const t = this.bucketStart();
    if (t === s.counted.t) return;
    s.throughput.push(this.filling(s));
    if (s.throughput.length > BUCKETS) s.throughput.shift();
    s.counted = { t, ...s.totals };
  }

  private bucketStart(): number {
    return Math.floor(this.now() / BUCKET_MS) * BUCKET_MS;
  }

  private of(functionName: string, topic: string): TriggerState | undefined {
    return this.byFunction.get(functionName)?.get(topic);
  }

  private all(): TriggerState[] {
    return [...this.byFunction.values()].flatMap((topics) => [...topics.values()]);
  }

  private sample(): void {
    const snapshot = this.o.progress.snapshot();
    for (const s of this.all()) {
      this.cut(s);
      if (s.share) {
        for (const [partition, lag] of s.share.lag) this.pushLag(s, partition, lag);
        continue;
      }
      for (const p of snapshot) {
        if (p.group !== s.spec.consumerGroupId || p.topic !== s.spec.topic) continue;
        this.pushLag(s, p.partition, p.lag);
      }
    }
  }

  private pushLag(s: TriggerState, partition: number, lag: number): void {
    const series = s.lagHistory.get(partition) ?? s.lagHistory.set(partition, []).get(partition)!;
    series.push(lag);
    if (series.length > BUCKETS) series.shift();
  }
}

const HELD: Record<string, string> = {
  retrying: 'a failed record is retried after its backoff',
  'not-invoked': 'the function could not be reached; the chunk is retried',
  destination: 'the on-failure destination does not accept the record yet',
  registry: 'the schema registry does not answer yet',
};
