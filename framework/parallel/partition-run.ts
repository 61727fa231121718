/**
 * parallelizationFactor > 1: one batch of a partition run as up to N chunks at once
 * (docs/how-it-works.md, "Parallel chunks of a partition"). Keys stay in order (key-scheduler.ts);
 * a failing chunk is held with its keys while the others go on; every chunk that ends moves the
 * commit to the lowest offset still owed, with what is done beyond it in the commit's metadata
 * (commit-metadata.ts). The run ends once nothing runs and nothing more may start: the poll budget
 * is spent, a rebalance or stop began, or what is left waits (a held retry, a full window). Then
 * the fetch goes on past the records it holds in memory, and the partition fetches the lowest one
 * it holds again once work is due (planFetch), since no engine hands over a batch without records.
 */
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import { eventBytes } from '../event/event-size.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import { decideAfterFailure, isExpired, type FailureReason } from '../failure/policy.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { NOT_INVOKED_BACKOFF, type BatchProcessor } from '../poller/batch-processor.ts';
import type { ChunkInvoker } from '../poller/chunk-invoker.ts';
import type { Delivery } from '../poller/delivery.ts';
import { withHeartbeats } from '../poller/keep-alive.ts';
import { settle } from '../poller/settle.ts';
import type { WorkItem } from '../poller/work-plan.ts';
import { windowFor } from './commit-metadata.ts';
import { nextChunks, orderingKeyOf, type OrderingKeyOf } from './key-scheduler.ts';
import type { CommitPoint, Lane, PartitionState, Pending } from './partition-state.ts';

/** How long after a refused commit the partition fetches again, so that a batch commits what is done. */
export const COMMIT_AGAIN_MS = 1_000;

export interface RunContext {
  trigger: TriggerSpec;
  events: Instrumentation;
  logger: Logger;
  invoker: ChunkInvoker;
  delivery: Delivery;
  /** The failure policy's shared steps: budget, give-up sends, ignored item failures. */
  policy: Pick<BatchProcessor, 'fitsBudget' | 'sendGivenUp' | 'warnIgnoredFailures'>;
  heartbeatIntervalMs: number;
  invocationsShown: boolean;
  /** The most a held retry waits for its fetch once due: the fetch in flight, and its own with a batching window (poller.ts). */
  fetchWaitMs?: number;
  /** Lambda's payload limit and this partition's event envelope, for chunks of several records. */
  maxPayloadBytes: number;
  envelopeBytes: number;
  /** The broker's offset.metadata.max.bytes as this trigger knows it (halved if a commit is refused for it). */
  metadataMaxBytes(): number;
  metadataTooLarge(refusedAt: number): void;
}

export class PartitionRun {
  private readonly running = new Map<Lane, Promise<void>>();
  /** No chunk starts any more: the budget is spent, or a commit was refused. */
  private halted = false;
  /** The coordinator refused a commit: what is done is not committed yet. */
  private refused = false;
  private committing: Promise<void> | undefined;
  private commitAgain = false;
  private failure: unknown;
  private due: { at: number; reached: Promise<void> } | undefined;
  /** The trigger's ordering key (key-scheduler.ts): what a running or held chunk holds. */
  private readonly keyOf: OrderingKeyOf;
  /** What a retry holds back, for its lines: the records' keys, or (ordering: unordered) the records alone. */
  private readonly waiting: string;

  constructor(
    private readonly c: RunContext,
    private readonly batch: PartitionBatch,
    private readonly state: PartitionState,
  ) {
    this.keyOf = orderingKeyOf(c.trigger.ordering);
    this.waiting = c.trigger.ordering === 'unordered' ? 'only they wait' : 'their keys wait';
  }

  async run(): Promise<void> {
    const { batch } = this;
    try {
      await withHeartbeats(batch, this.c.heartbeatIntervalMs, this.c.logger, async () => {
        this.requestCommit(); // records filtered out or skipped may have moved it already
        for (;;) {
          if (!this.halted && batch.isActive()) this.startWork();
          if (this.running.size === 0) break;
          await Promise.race([...this.running.values(), this.nextDue()]);
        }
        while (this.committing) await this.committing;
      });
    } finally {
      this.planFetch();
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** Starts due held lanes, then fresh chunks, while slots are free and the budget allows. */
  private startWork(): void {
    const { trigger } = this.c;
    const state = this.state;
    const now = Date.now();
    const due = state.held.filter((l) => l.dueAt <= now).sort((a, b) => a.items[0]!.records[0]!.offset - b.items[0]!.records[0]!.offset);
    for (const lane of due) {
      if (this.running.size >= trigger.parallelizationFactor) return;
      if (!this.fits(lane.items[0]!)) return;
      state.held.splice(state.held.indexOf(lane), 1);
      this.launch(lane);
    }
    const slots = trigger.parallelizationFactor - this.running.size;
    if (slots <= 0 || state.pending.length === 0) return;
    const held = new Set<string>();
    for (const lane of [...this.running.keys(), ...state.held]) for (const item of lane.items) for (const r of item.records) held.add(this.keyOf(r));
    const window = windowFor(this.c.metadataMaxBytes());
    const chunks = nextChunks({
      pending: state.pending, keyOf: (p) => p.key, held, slots, batchSize: trigger.batchSize,
      maxOffset: (state.next ?? 0) + window, fits: this.fitsPayload(),
    });
    const started = new Set<number>();
    for (const chunk of chunks) {
      const item = this.itemOf(chunk);
      if (!this.fits(item)) break;
      for (const p of chunk) started.add(p.offset);
      this.launch({ items: [item], dueAt: 0 });
    }
    state.started(started);
  }

  private fits(item: WorkItem): boolean {
    const timeoutMs = item.giveUp ? this.c.delivery.sendTimeoutMs : undefined;
    if (this.c.policy.fitsBudget(this.batch, item, timeoutMs)) return true;
    this.halted = true;
    return false;
  }

  private launch(lane: Lane): void {
    const work = this.runLane(lane)
      .catch((e: unknown) => {
        // Not the handler's failure (that is a result): a fault of Sluice's own. The lane waits, nothing
        // else starts, and the error ends the batch once the other chunks are done.
        this.failure ??= e;
        this.halted = true;
        lane.dueAt = Date.now() + 1_000;
        if (!this.state.held.includes(lane)) this.state.held.push(lane);
      })
      .finally(() => {
        this.running.delete(lane);
        this.reportInFlight();
      });
    this.running.set(lane, work);
    this.reportInFlight();
  }

  /** Runs the lane's items in order; a lane that must wait is held with its due time. */
  private async runLane(lane: Lane): Promise<void> {
    while (lane.items.length > 0) {
      const wait = await this.step(lane);
      if (wait === undefined) continue;
      lane.dueAt = Date.now() + wait;
      this.state.held.push(lane);
      return;
    }
  }

  /** One try of the lane's first item: undefined to go on with the lane, or how long it waits. */
  private async step(lane: Lane): Promise<number | undefined> {
    const { batch, c } = this;
    const item = lane.items[0]!;
    if (this.halted || !batch.isActive() || !this.fits(item)) return 0;
    if (item.giveUp) return (await this.sent(item, item.records, item.giveUp)) ?? this.finish(lane, item.records);
    const expired = item.records.filter((r) => isExpired(r, c.trigger.failure, Date.now()));
    if (expired.length) {
      const wait = await this.sent(item, expired, 'RecordAgeExceeded');
      if (wait !== undefined) return wait;
      this.state.done(expired.map((r) => r.offset));
      this.requestCommit();
      item.records = item.records.filter((r) => !expired.includes(r));
      if (item.records.length === 0) return this.finish(lane, []);
    }
    const result = await c.invoker.invoke(batch, item, false);
    if (!result.ok && result.error.kind === 'not-invoked') {
      item.unreached = (item.unreached ?? 0) + 1;
      const delayMs = retryDelayMs(item.unreached, NOT_INVOKED_BACKOFF);
      const { offset } = item.records[0]!;
      c.logger.warn(`the function was not reached; retrying without spending an attempt, ${this.waiting}`, { partition: batch.partition, offset, inARow: item.unreached, retryInMs: delayMs, error: `${result.error.name}: ${result.error.message}` });
      c.events.emit('poller.retry_scheduled', { functionName: c.trigger.functionName, topic: batch.topic, partition: batch.partition, offset, attempt: item.attempts, delayMs, ...(c.fetchWaitMs ? { fetchWaitMs: c.fetchWaitMs } : {}), notInvoked: true, keyWaits: true });
      return delayMs;
    }
    const { failedFrom, error, ignoredFailures } = settle(result, item.records, c.trigger.failure.reportBatchItemFailures);
    if (ignoredFailures) c.policy.warnIgnoredFailures(batch, item.records[0]!.offset, ignoredFailures);
    if (failedFrom === undefined) return this.finish(lane, item.records);
    const failed = item.records.filter((r) => r.offset >= failedFrom);
    this.state.done(item.records.filter((r) => r.offset < failedFrom).map((r) => r.offset));
    this.requestCommit();
    const attempts = item.attempts + 1;
    const shaped: WorkItem = { records: failed, attempts, bytes: item.bytes, remembered: true, ...(error ? { error } : {}) };
    lane.items[0] = shaped;
    const decision = decideAfterFailure(c.trigger.failure, failed.length, attempts);
    const from = failed[0]!.offset;
    if (decision.action === 'bisect') {
      const halves = [failed.slice(0, decision.firstHalf), failed.slice(decision.firstHalf)];
      c.events.emit('poller.bisected', { functionName: c.trigger.functionName, topic: batch.topic, partition: batch.partition, firstOffset: from, sizes: halves.map((h) => h.length) });
      const [first, second] = halves.map((records): WorkItem => ({ records, attempts: 0, bytes: 0, remembered: true, ...(error ? { error } : {}) }));
      // Halves that share no key need not wait for each other: the second becomes a lane of its own, due now.
      const keysOf = (items: WorkItem[]) => new Set(items.flatMap((i) => i.records.map(this.keyOf)));
      const firstKeys = keysOf([first!, ...lane.items.slice(1)]);
      if ([...keysOf([second!])].some((k) => firstKeys.has(k))) lane.items.splice(0, 1, first!, second!);
      else {
        lane.items[0] = first!;
        this.state.held.push({ items: [second!], dueAt: 0 });
      }
      return undefined;
    }
    if (decision.action === 'give-up') {
      shaped.giveUp = decision.reason;
      return (await this.sent(shaped, failed, decision.reason)) ?? this.finish(lane, failed);
    }
    c.logger[c.invocationsShown ? 'debug' : 'error'](`invocation failed; the records will be retried, ${this.waiting}`, {
      partition: batch.partition, offsets: `${from}-${failed[failed.length - 1]!.offset}`, attempt: attempts, retryInMs: decision.delayMs, error,
    });
    const { maximumRetryAttempts, maximumRecordAgeMs } = c.trigger.failure;
    const untilSuccess = maximumRetryAttempts < 0 && maximumRecordAgeMs === undefined ? { untilSuccess: true as const } : {};
    c.events.emit('poller.retry_scheduled', { functionName: c.trigger.functionName, topic: batch.topic, partition: batch.partition, offset: from, attempt: attempts, delayMs: decision.delayMs, ...(c.fetchWaitMs ? { fetchWaitMs: c.fetchWaitMs } : {}), ...untilSuccess, keyWaits: true });
    return decision.delayMs;
  }

  /** Sends `records` of `item` to the destination: undefined once they are there, else how long the lane waits. */
  private async sent(item: WorkItem, records: KafkaRecord[], reason: FailureReason): Promise<number | undefined> {
    const failuresBefore = item.sendFailures ?? 0;
    if (await this.c.policy.sendGivenUp(this.batch, item, records, reason, false)) return undefined;
    // Not sent: the destination failed (one more failed send: back off), or it was not the time (stopping, the budget).
    return (item.sendFailures ?? 0) > failuresBefore ? retryDelayMs(item.sendFailures!) : 0;
  }

  /** The lane's first item ended: its records (and any it had before) are done. */
  private finish(lane: Lane, records: readonly KafkaRecord[]): undefined {
    lane.items.shift();
    this.state.done(records.map((r) => r.offset));
    this.requestCommit();
    return undefined;
  }

  /** Commits the state as it is now, one commit at a time: one asked for meanwhile commits the newest state after it. */
  private requestCommit(): void {
    if (this.committing) {
      this.commitAgain = true;
      return;
    }
    this.committing = this.commitLoop().finally(() => {
      this.committing = undefined;
      // Asked for after the loop's last look and before this ran (found by the model-based test: the
      // last chunk's commit was lost, and an idle partition kept its done work uncommitted).
      if (this.commitAgain) this.requestCommit();
    });
  }

  private async commitLoop(): Promise<void> {
    do {
      this.commitAgain = false;
      const point = this.state.commitPoint(this.c.metadataMaxBytes());
      if (!point || sameCommit(point, this.state.basis)) continue;
      const outcome = await this.c.delivery.commitWith(this.batch, point.next, point.metadata, point.done);
      if (outcome === 'ok') {
        this.state.basis = point;
        this.refused = false; // a refusal that a later commit mended needs no fetch to ask again
      } else if (outcome === 'metadata-too-large') {
        this.c.metadataTooLarge(point.metadata?.length ?? 0);
        this.commitAgain = true;
      } else {
        this.halted = true;
        this.refused = true;
        return;
      }
    } while (this.commitAgain);
  }

  /** Resolves when the first held lane is due (never, when none is or no slot is free): a reason to look again. */
  private nextDue(): Promise<void> {
    // With every slot busy a due lane cannot start: a chunk's end is the next reason to look (a
    // resolved wait here would make the loop spin in microtasks and starve the event loop).
    // Nor when nothing may start (the budget, a rebalance, a stop): the running chunks' ends are.
    if (this.halted || !this.batch.isActive() || this.state.held.length === 0 || this.running.size >= this.c.trigger.parallelizationFactor) return NEVER;
    const at = Math.min(...this.state.held.map((l) => l.dueAt));
    if (this.due?.at !== at) this.due = { at, reached: new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())).unref()) };
    return this.due.reached;
  }

  /**
   * Where the partition fetches next: past what it holds, so records written meanwhile come as
   * they are written, and, when held work is due, from the lowest record it holds, whether or not
   * any record came (a log that ends in transaction markers, aborted records or an open
   * transaction brings no batch, which is why the high watermark cannot tell). With the window
   * full nothing may come from past it: the partition fetches what it holds once work is due.
   */
  private planFetch(): void {
    const { batch, state } = this;
    const end = state.fetchedEnd;
    if (end === undefined) return;
    const held = state.lowestInMemory();
    if (this.refused) return this.commitAgainSoon(held);
    if (held === undefined) return batch.fetchFrom(end);
    const startable = this.halted || !batch.isActive() || (state.pending.length > 0 && state.held.length === 0);
    const dueAt = startable ? Date.now() : Math.min(...state.held.map((l) => l.dueAt));
    const waitMs = Math.max(0, dueAt - Date.now());
    if (state.windowFull) {
      if (!state.windowWarned) this.windowFullOnce(end);
      state.windowWarned = true;
      batch.fetchFrom(held);
      if (waitMs > 0) batch.pauseFor(waitMs);
      return;
    }
    state.windowWarned = false;
    batch.fetchFrom(end);
    batch.fetchFromLater(held, waitMs);
  }

  /**
   * A refused commit (the coordinator moved, a rebalance under way) is asked again by the next
   * batch's run. On kafkajs the refusal makes the member rejoin, and a batch follows; on
   * librdkafka none may come while the partition is idle, and its done work would stay
   * uncommitted until a restart ran it again: the partition fetches this batch's records again
   * (each is skipped as taken in already) after COMMIT_AGAIN_MS, and that batch commits.
   */
  private commitAgainSoon(held: number | undefined): void {
    const first = this.batch.records[0]!.offset;
    this.batch.fetchFrom(held === undefined ? first : Math.min(held, first));
    this.batch.pauseFor(COMMIT_AGAIN_MS);
  }

  private windowFullOnce(end: number): void {
    const next = this.state.next ?? end;
    this.c.logger.warn(`the commit metadata's window is full: nothing past offset ${end - 1} starts until offset ${next} is done (it waits to retry); set destinationConfig.onFailure to move such records aside`, { partition: this.batch.partition, committed: next, windowOffsets: windowFor(this.c.metadataMaxBytes()) });
  }

  private reportInFlight(): void {
    const { batch, c } = this;
    c.events.emit('poller.partition_parallel', { functionName: c.trigger.functionName, topic: batch.topic, partition: batch.partition, inFlight: this.running.size, windowFull: this.state.windowFull });
  }

  private itemOf(chunk: Pending[]): WorkItem {
    const first = chunk[0]!;
    if (first.giveUp) return { records: [first.record], attempts: 0, bytes: first.bytes, giveUp: first.giveUp, ...(first.error ? { error: first.error } : {}) };
    const bytes = eventBytes(this.c.envelopeBytes, chunk.reduce((n, p) => n + p.bytes, 0), chunk.length);
    return { records: chunk.map((p) => p.record), attempts: 0, bytes };
  }

  /** Whether a record may join a chunk: give-ups go alone; the event stays within the payload limit. */
  private fitsPayload(): (chunk: readonly Pending[], p: Pending) => boolean {
    const sums = new WeakMap<readonly Pending[], { length: number; bytes: number }>();
    return (chunk, p) => {
      if (chunk[0]!.giveUp || p.giveUp) return false;
      const known = sums.get(chunk) ?? { length: 0, bytes: 0 };
      for (let i = known.length; i < chunk.length; i++) known.bytes += chunk[i]!.bytes;
      known.length = chunk.length;
      sums.set(chunk, known);
      return eventBytes(this.c.envelopeBytes, known.bytes + p.bytes, chunk.length + 1) <= this.c.maxPayloadBytes;
    };
  }
}

const NEVER = new Promise<void>(() => undefined);
const sameCommit = (a: CommitPoint, b: CommitPoint | undefined) => b !== undefined && a.next === b.next && a.metadata === b.metadata;
