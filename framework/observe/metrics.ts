/**
 * Prometheus metrics for `GET /metrics`, fed by the poller's instrumentation events (nothing in
 * the poller calls a metric). A registry of its own (not prom-client's global one), Prometheus
 * naming: `sluice_` prefix, `_total` counters, `_seconds` histograms. Per-partition series carry
 * function, topic, partition and group; each partition's series are looked up once and kept, so
 * a batch or a chunk costs counter increments, and nothing is done per record.
 *
 * `sluice_offset_lag` is read from the broker, not guessed: the high watermark the partition's
 * last fetch returned minus the group's committed offset (before this member's first commit,
 * the offset it fetched from, which is the committed one).
 */
import { Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import type { TriggerSpec } from '../config/types.ts';
import type { Instrumentation } from './events.ts';

const PARTITION = ['function', 'topic', 'partition', 'group'] as const;
const TRIGGER = ['function', 'topic', 'group'] as const;
type PartitionLabel = (typeof PARTITION)[number];
type TriggerLabel = (typeof TRIGGER)[number];

interface PartitionSeries {
  labels: LabelValues<PartitionLabel>;
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

export class PollerMetrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly partitions = new Map<string, PartitionSeries>();
  private readonly groups = new Map<string, string>();
  private readonly unsubscribe: Array<() => void> = [];

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
    sendFailures: this.counter('sluice_destination_send_failures_total', 'Sends to the on-failure destination that failed (the partition waits and retries).', PARTITION),
    invocations: this.counter('sluice_invocations_total', 'Invocations by outcome: ok, error, timeout, throttled (never reached the function), crash.', [...TRIGGER, 'outcome']),
    duration: this.histogram('sluice_invocation_duration_seconds', 'Invocation duration.', TRIGGER, [0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 60, 300, 900]),
    commitLatency: this.histogram('sluice_commit_latency_seconds', 'Time for the coordinator to accept a commit.', TRIGGER, [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5]),
    inFlight: this.gauge('sluice_invocations_in_flight', 'Invocations running now.', TRIGGER),
    restarts: this.counter('sluice_consumer_restarts_total', 'Consumers restarted as a new member after they stopped.', TRIGGER),
    rebalances: this.counter('sluice_rebalances_total', 'Rebalances this member went through (detected, then rejoined).', ['group']),
    rebalanceDuration: this.histogram('sluice_rebalance_duration_seconds', 'From detecting a rebalance to rejoining.', ['group'], [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300]),
    heartbeatFailures: this.counter('sluice_heartbeat_failures_total', 'Heartbeats that failed (a rebalance, or the coordinator unreachable).', ['group']),
  };

  constructor(triggers: readonly Pick<TriggerSpec, 'functionName' | 'topic' | 'consumerGroupId'>[], events: Instrumentation) {
    for (const t of triggers) this.groups.set(`${t.functionName}|${t.topic}`, t.consumerGroupId);
    const on: Instrumentation['on'] = (name, listener) => {
      const off = events.on(name, listener);
      this.unsubscribe.push(off);
      return off;
    };
    on('poller.batch_received', (e) => {
      const s = this.series(e.functionName, e.topic, e.partition);
      s.received.inc(e.count);
      s.highWatermark = e.highWatermark;
      s.committed ??= e.firstOffset;
      s.lag.set(Math.max(0, s.highWatermark - s.committed));
    });
    on('poller.filtered', (e) => this.series(e.functionName, e.topic, e.partition).filtered.inc(e.count));
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
      this.m.invocations.inc({ ...t, outcome: e.ok ? 'ok' : e.kind === 'not-invoked' ? 'throttled' : (e.kind ?? 'error') });
    });
    on('poller.retry_scheduled', (e) => this.series(e.functionName, e.topic, e.partition).retries.inc());
    on('poller.bisected', (e) => this.series(e.functionName, e.topic, e.partition).bisections.inc());
    on('poller.commit', (e) => {
      const s = this.series(e.functionName, e.topic, e.partition);
      s.commits.inc();
      s.committed = e.offset;
      s.lag.set(Math.max(0, s.highWatermark - e.offset));
      this.m.commitLatency.observe(this.trigger(e.functionName, e.topic), e.durationMs / 1000);
    });
    on('poller.commit_refused', (e) => this.m.commitsRefused.inc({ ...this.series(e.functionName, e.topic, e.partition).labels, reason: e.reason }));
    on('poller.sent_to_destination', (e) => this.m.sent.inc({ ...this.series(e.functionName, e.topic, e.partition).labels, reason: e.reason }, e.offsets.length));
    on('poller.destination_failed', (e) => this.series(e.functionName, e.topic, e.partition).sendFailures.inc());
    on('trigger.consumer_restarted', (e) => this.m.restarts.inc({ function: e.functionName, topic: e.topic, group: e.groupId }));
    on('group.rebalanced', (e) => {
      this.m.rebalances.inc({ group: e.groupId });
      this.m.rebalanceDuration.observe({ group: e.groupId }, e.durationMs / 1000);
    });
    on('poller.heartbeat', (e) => {
      if (!e.ok) this.m.heartbeatFailures.inc({ group: e.groupId });
    });
  }

  /** The exposition, in Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  private trigger(fn: string, topic: string): LabelValues<TriggerLabel> {
    return { function: fn, topic, group: this.groups.get(`${fn}|${topic}`) ?? '' };
  }

  private series(fn: string, topic: string, partition: number): PartitionSeries {
    const key = `${fn}|${topic}|${partition}`;
    let s = this.partitions.get(key);
    if (!s) {
      const labels = { ...this.trigger(fn, topic), partition: String(partition) };
      const m = this.m;
      s = {
        labels, highWatermark: 0, committed: undefined,
        lag: m.lag.labels(labels), received: m.received.labels(labels), filtered: m.filtered.labels(labels), invoked: m.invoked.labels(labels),
        succeeded: m.succeeded.labels(labels), failed: m.failed.labels(labels), retries: m.retries.labels(labels), bisections: m.bisections.labels(labels),
        commits: m.commits.labels(labels), sendFailures: m.sendFailures.labels(labels),
      };
      this.partitions.set(key, s);
    }
    return s;
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
