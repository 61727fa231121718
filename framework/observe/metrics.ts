/**
 * Prometheus metrics for `GET /metrics`, fed by the poller's instrumentation events (nothing in
 * the poller calls a metric). A registry of its own (not prom-client's global one), Prometheus
 * naming: `sluice_` prefix, `_total` counters, `_seconds` histograms. Per-partition series carry
 * function, topic, partition and group; each partition's series are looked up once and kept, so
 * a batch or a chunk costs counter increments, and nothing is done per record.
 *
 * `sluice_offset_lag` is read from the broker, not guessed: the high watermark the partition's
 * last fetch returned minus the group's committed offset (before this member's first commit,
 * the offset it fetched from, which is the committed one). It is served for the partitions this
 * member owns: a partition assigned away loses its lag series (another member reports it), and
 * one assigned back starts again from the offset it is fetched from.
 *
 * `snapshot()` gives each trigger's totals for CloudWatch (observe/emf.ts).
 */
import { Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import type { TriggerSpec } from '../config/types.ts';
import type { Instrumentation } from './events.ts';
import type { ProgressTracker } from './progress.ts';

const PARTITION = ['function', 'topic', 'partition', 'group'] as const;
const TRIGGER = ['function', 'topic', 'group'] as const;
type PartitionLabel = (typeof PARTITION)[number];
type TriggerLabel = (typeof TRIGGER)[number];

interface PartitionSeries {
  labels: LabelValues<PartitionLabel>;
  trigger: TriggerTotals;
  /** Assigned to this member since its last fetch; false once assigned away (no lag series). */
  owned: boolean;
  highWatermark: number;
  committed: number | undefined;
  lag: ReturnType<Gauge<PartitionLabel>['labels']>;
  received: ReturnType<Counter<PartitionLabel>['labels']>;
  filtered: ReturnType<Counter<PartitionLabel>['labels']>;
  invoked: ReturnType<Counter<PartitionLabel>['labels']>;
  succeeded: ReturnType<Counter<PartitionLabel>['labels']>;
  failed: ReturnType<Counter<PartitionLabel>['labels']>;
  retries: ReturnType<Counter<PartitionLabel>['labels']>;
  bisections: ReturnType<Counter<PartitionLabel>['labels']>;
  commits: ReturnType<Counter<PartitionLabel>['labels']>;
  sendFailures: ReturnType<Counter<PartitionLabel>['labels']>;
}

/** A trigger's figures for CloudWatch: counts since the start, and the largest lag of its owned partitions. */
export interface TriggerTotals {
  functionName: string;
  topic: string;
  group: string;
  /** Invocations that reached the function (any outcome but throttled). */
  invocations: number;
  /** Of those, the ones that failed: error, timeout, crash. */
  errors: number;
  /** Invocations that never reached the function (throttled or unreachable). */
  throttles: number;
}

export interface TriggerSnapshot extends TriggerTotals {
  /**
   * Stream mode: the maximum of `sluice_offset_lag` over the partitions this member owns (0 with
   * none fetched). Queue mode: the share group's whole backlog, every partition's
   * `sluice_share_group_lag` summed, since any poller takes records of any partition.
   */
  offsetLag: number;
}

export class PollerMetrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly partitions = new Map<string, PartitionSeries>();
  private readonly totals = new Map<string, TriggerTotals>();
  /** Per trigger: its label values and its invocation counter by outcome, made once (chunks reuse them). */
  private readonly triggerSeries = new Map<TriggerTotals, { labels: LabelValues<TriggerLabel>; outcomes: Map<string, ReturnType<Counter<TriggerLabel | 'outcome'>['labels']>> }>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Queue triggers: each partition's share-group lag at its last known reading (a reading that did not know one keeps the one before). */
  private readonly shareBacklog = new Map<TriggerTotals, Map<number, number>>();

  private readonly m = {
    lag: this.gauge('sluice_offset_lag', 'Records behind: the high watermark of the last fetch minus the committed offset.', PARTITION),
    received: this.counter('sluice_records_received_total', 'Records fetched and handed to the poller.', PARTITION),
    filtered: this.counter('sluice_records_filtered_total', 'Records dropped by filterPatterns (committed, never invoked).', PARTITION),
    invoked: this.counter('sluice_records_invoked_total', 'Records in invocations started (a retried record counts each time).', PARTITION),
    succeeded: this.counter('sluice_records_succeeded_total', 'Records in invocations that succeeded.', PARTITION),
    failed: this.counter('sluice_records_failed_total', 'Records in invocations that failed (before any retry).', PARTITION),
    retries: this.counter('sluice_retries_total', 'Retries scheduled for a failed or not-invoked chunk.', PARTITION),
    bisections: this.counter('sluice_bisections_total', 'Failing sets split in two (bisectBatchOnFunctionError).', PARTITION),
    commits: this.counter('sluice_commits_total', 'Offsets committed to the group coordinator.', PARTITION),
    commitsRefused: this.counter('sluice_commits_refused_total', 'Commits not made: refused by the coordinator, or not sent for a partition no longer owned.', [...PARTITION, 'reason']),
    sent: this.counter('sluice_destination_records_total', 'Records sent to the on-failure destination.', [...PARTITION, 'reason']),
    itemFailuresIgnored: this.counter('sluice_item_failures_ignored_total', 'Records a handler reported in batchItemFailures to a trigger without functionResponseType: ReportBatchItemFailures (ignored, committed as done).', PARTITION),
    sendFailures: this.counter('sluice_destination_send_failures_total', 'Sends to the on-failure destination that failed (the partition waits and retries).', PARTITION),
    invocations: this.counter('sluice_invocations_total', 'Invocations by outcome: ok, error, timeout, throttled (never reached the function), crash.', [...TRIGGER, 'outcome']),
    duration: this.histogram('sluice_invocation_duration_seconds', 'Invocation duration.', TRIGGER, [0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 60, 300, 900]),
    commitLatency: this.histogram('sluice_commit_latency_seconds', 'Time for the coordinator to accept a commit.', TRIGGER, [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5]),
    inFlight: this.gauge('sluice_invocations_in_flight', 'Invocations running now.', TRIGGER),
    restarts: this.counter('sluice_consumer_restarts_total', 'Consumers restarted as a new member after they stopped.', TRIGGER),
    rebalances: this.counter('sluice_rebalances_total', 'Rebalances this member went through (detected, then rejoined).', ['group']),
    rebalanceDuration: this.histogram('sluice_rebalance_duration_seconds', 'From detecting a rebalance to rejoining.', ['group'], [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300]),
    chunksInFlight: this.gauge('sluice_partition_chunks_in_flight', 'Invocations of the partition running now (parallelizationFactor > 1).', PARTITION),
    windowFull: this.gauge('sluice_partition_window_full', '1 while records of the partition wait because the commit metadata\'s window is full (parallelizationFactor > 1).', PARTITION),
    metadataBytes: this.gauge('sluice_commit_metadata_bytes', 'Length of the last commit\'s metadata: the records done beyond the committed offset (parallelizationFactor > 1).', PARTITION),
    acquired: this.counter('sluice_queue_records_acquired_total', 'Queue mode: records a share fetch acquired for this poller.', PARTITION),
    redelivered: this.counter('sluice_queue_redeliveries_total', 'Queue mode: records acquired at a delivery count above 1 (released, or their lock ran out, before).', PARTITION),
    inHand: this.gauge('sluice_queue_records_in_hand', 'Queue mode: records this poller acquired and has not acknowledged yet (invoked, waiting their turn, their backoff or the destination).', PARTITION),
    shareLag: this.gauge('sluice_share_group_lag', 'Queue mode: records of the partition the share group has not acknowledged yet, those in flight included, as the broker counts them (read every few seconds).', PARTITION),
    acknowledged: this.counter('sluice_queue_acknowledgements_total', 'Queue mode: records acknowledged, by type: accept (done or filtered), release (delivered again), reject (after the destination took it).', [...PARTITION, 'type']),
    heartbeatFailures: this.counter('sluice_heartbeat_failures_total', 'Heartbeats that failed (a rebalance, or the coordinator unreachable).', ['group']),
  };

  constructor(triggers: readonly Pick<TriggerSpec, 'functionName' | 'topic' | 'consumerGroupId'>[], events: Instrumentation, progress?: Pick<ProgressTracker, 'snapshot'>) {
    if (progress) this.progressGauges(progress);
    for (const t of triggers) {
      this.totals.set(`${t.functionName}|${t.topic}`, { functionName: t.functionName, topic: t.topic, group: t.consumerGroupId, invocations: 0, errors: 0, throttles: 0 });
    }
    const on: Instrumentation['on'] = (name, listener) => {
      const off = events.on(name, listener);
      this.unsubscribe.push(off);
      return off;
    };
    on('poller.batch_received', (e) => {
      const s = this.series(e.functionName, e.topic, e.partition);
      s.received.inc(e.count);
      if (!s.owned) {
        // Back after another member had it: its progress is where this fetch starts.
        s.owned = true;
        s.committed = e.firstOffset;
        s.lag = this.m.lag.labels(s.labels);
      }
      s.highWatermark = e.highWatermark;
      s.committed ??= e.firstOffset;
      s.lag.set(Math.max(0, s.highWatermark - s.committed));
    });
    on('poller.filtered', (e) => this.series(e.functionName, e.topic, e.partition).filtered.inc(e.count));
    on('queue.acquired', (e) => {
      const { labels } = this.series(e.functionName, e.topic, e.partition);
      this.m.acquired.inc(labels, e.count);
      this.m.inHand.inc(labels, e.count);
      if (e.redelivered) this.m.redelivered.inc(labels, e.redelivered);
    });
    on('queue.lag', (e) => {
      const t = this.totalsOf(e.functionName, e.topic);
      const known = this.shareBacklog.get(t) ?? this.shareBacklog.set(t, new Map()).get(t)!;
      for (const p of e.partitions) {
        if (p.lag === null) continue; // not known this time: the last known lag stands
        this.m.shareLag.set(this.series(e.functionName, e.topic, p.partition).labels, p.lag);
        known.set(p.partition, p.lag);
      }
      // A partition the topic no longer has: its backlog is gone, from the gauge and from OffsetLag.
      const listed = new Set(e.partitions.map((p) => p.partition));
      for (const partition of [...known.keys()].filter((p) => !listed.has(p))) {
        known.delete(partition);
        this.m.shareLag.remove(this.series(e.functionName, e.topic, partition).labels);
      }
    });
    on('queue.acknowledged', (e) => {
      const { labels } = this.series(e.functionName, e.topic, e.partition);
      this.m.acknowledged.inc({ ...labels, type: e.type }, e.count);
      this.m.inHand.dec(labels, e.count);
    });
    on('poller.chunk_start', (e) => {
      this.series(e.functionName, e.topic, e.partition).invoked.inc(e.count);
      this.m.inFlight.inc(this.trigger(e.functionName, e.topic));
    });
    on('poller.chunk_end', (e) => {
      const s = this.series(e.functionName, e.topic, e.partition);
      const t = this.trigger(e.functionName, e.topic);
      (e.ok ? s.succeeded : s.failed).inc(e.count);
      this.m.inFlight.dec(t);
      this.m.duration.observe(t, e.durationMs / 1000);
      const outcome = e.ok ? 'ok' : e.kind === 'not-invoked' ? 'throttled' : (e.kind ?? 'error');
      this.outcomeCounter(s.trigger, outcome).inc();
      if (outcome === 'throttled') s.trigger.throttles++;
      else {
        s.trigger.invocations++;
        if (outcome !== 'ok') s.trigger.errors++;
      }
    });
    on('poller.retry_scheduled', (e) => this.series(e.functionName, e.topic, e.partition).retries.inc());
    on('poller.item_failures_ignored', (e) => this.m.itemFailuresIgnored.inc(this.series(e.functionName, e.topic, e.partition).labels, e.count));
    on('poller.bisected', (e) => this.series(e.functionName, e.topic, e.partition).bisections.inc());
    on('poller.commit', (e) => {
      const s = this.series(e.functionName, e.topic, e.partition);
      s.commits.inc();
      // A commit answered after the partition was assigned away says nothing of its lag now.
      if (s.owned) {
        s.committed = e.offset;
        s.lag.set(Math.max(0, s.highWatermark - e.offset));
      }
      this.m.commitLatency.observe(this.trigger(e.functionName, e.topic), e.durationMs / 1000);
      if (e.metadataBytes !== undefined) this.m.metadataBytes.set(s.labels, e.metadataBytes);
    });
    on('poller.partition_parallel', (e) => {
      const { labels } = this.series(e.functionName, e.topic, e.partition);
      this.m.chunksInFlight.set(labels, e.inFlight);
      this.m.windowFull.set(labels, e.windowFull ? 1 : 0);
    });
    on('poller.commit_refused', (e) => this.m.commitsRefused.inc({ ...this.series(e.functionName, e.topic, e.partition).labels, reason: e.reason }));
    on('poller.sent_to_destination', (e) => this.m.sent.inc({ ...this.series(e.functionName, e.topic, e.partition).labels, reason: e.reason }, e.offsets.length));
    on('poller.destination_failed', (e) => this.series(e.functionName, e.topic, e.partition).sendFailures.inc());
    on('trigger.consumer_restarted', (e) => this.m.restarts.inc({ function: e.functionName, topic: e.topic, group: e.groupId }));
    on('group.rebalanced', (e) => {
      this.m.rebalances.inc({ group: e.groupId });
      this.m.rebalanceDuration.observe({ group: e.groupId }, e.durationMs / 1000);
    });
    on('group.join', (e) => this.assigned(e.groupId, e.assignment));
    on('group.rebalanced', (e) => this.assigned(e.groupId, e.assignment));
    on('poller.heartbeat', (e) => {
      if (!e.ok) this.m.heartbeatFailures.inc({ group: e.groupId });
    });
  }

  /** Each trigger's totals and current largest lag, in the order the triggers were given. */
  snapshot(): TriggerSnapshot[] {
    const lag = new Map<TriggerTotals, number>();
    for (const s of this.partitions.values()) {
      if (s.owned && s.committed !== undefined) lag.set(s.trigger, Math.max(lag.get(s.trigger) ?? 0, s.highWatermark - s.committed));
    }
    const backlog = (t: TriggerTotals) => {
      const known = this.shareBacklog.get(t);
      return known && [...known.values()].reduce((n, l) => n + l, 0);
    };
    return [...this.totals.values()].map((t) => ({ ...t, offsetLag: Math.max(0, backlog(t) ?? lag.get(t) ?? 0) }));
  }

  /** The exposition, in Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** A new assignment: partitions of the group's triggers that it lacks lose their lag series. */
  private assigned(groupId: string, assignment: Record<string, number[]>): void {
    for (const s of this.partitions.values()) {
      if (!s.owned || s.trigger.group !== groupId || assignment[s.trigger.topic]?.includes(Number(s.labels.partition))) continue;
      s.owned = false;
      s.committed = undefined;
      this.m.lag.remove(s.labels);
    }
  }

  private trigger(fn: string, topic: string): LabelValues<TriggerLabel> {
    return this.seriesOf(this.totalsOf(fn, topic)).labels;
  }

  private outcomeCounter(t: TriggerTotals, outcome: string): ReturnType<Counter<TriggerLabel | 'outcome'>['labels']> {
    const { labels, outcomes } = this.seriesOf(t);
    let c = outcomes.get(outcome);
    if (!c) outcomes.set(outcome, (c = this.m.invocations.labels({ ...labels, outcome })));
    return c;
  }

  private seriesOf(t: TriggerTotals) {
    let s = this.triggerSeries.get(t);
    if (!s) this.triggerSeries.set(t, (s = { labels: { function: t.functionName, topic: t.topic, group: t.group }, outcomes: new Map() }));
    return s;
  }

  private totalsOf(fn: string, topic: string): TriggerTotals {
    const key = `${fn}|${topic}`;
    let t = this.totals.get(key);
    if (!t) this.totals.set(key, (t = { functionName: fn, topic, group: '', invocations: 0, errors: 0, throttles: 0 }));
    return t;
  }

  private series(fn: string, topic: string, partition: number): PartitionSeries {
    const key = `${fn}|${topic}|${partition}`;
    let s = this.partitions.get(key);
    if (!s) {
      const trigger = this.totalsOf(fn, topic);
      const labels = { function: fn, topic, group: trigger.group, partition: String(partition) };
      const m = this.m;
      s = {
        labels, trigger, owned: true, highWatermark: 0, committed: undefined,
        lag: m.lag.labels(labels), received: m.received.labels(labels), filtered: m.filtered.labels(labels), invoked: m.invoked.labels(labels),
        succeeded: m.succeeded.labels(labels), failed: m.failed.labels(labels), retries: m.retries.labels(labels), bisections: m.bisections.labels(labels),
        commits: m.commits.labels(labels), sendFailures: m.sendFailures.labels(labels),
      };
      this.partitions.set(key, s);
    }
    return s;
  }

  /** Read from the progress tracker when scraped: seconds without progress, and what holds or stops each owned partition. */
  private progressGauges(progress: Pick<ProgressTracker, 'snapshot'>): void {
    const labelsOf = (p: ReturnType<ProgressTracker['snapshot']>[number]) => ({ function: p.function, topic: p.topic, partition: String(p.partition), group: p.group });
    new Gauge({
      name: 'sluice_partition_seconds_without_progress',
      help: 'Seconds since the partition last committed or finished a chunk while records wait (0 when caught up).',
      labelNames: PARTITION,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const p of progress.snapshot()) this.set(labelsOf(p), p.secondsWithoutProgress);
      },
    });
    new Gauge({
      name: 'sluice_partition_state',
      help: 'Each owned partition\'s state (1 for the one it is in): caught-up, progressing, held (by a retry, a function not reached, the destination or the registry: slow by policy) or stuck (/healthz fails).',
      labelNames: [...PARTITION, 'state', 'held'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const p of progress.snapshot()) this.set({ ...labelsOf(p), state: p.state, held: p.held ?? '' }, 1);
      },
    });
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}
