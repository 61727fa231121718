/**
 * Works through one partition's batch: filter -> chunks -> invoke -> settle -> commit, with
 * AWS's failure policy. Within a partition, items run strictly in order; the committed offset
 * only ever passes records that succeeded, were filtered out, or reached the destination.
 * A set to retry pauses the partition for a backoff and is fetched again; a destination that
 * is down pauses it the same way, so nothing is dropped. Whatever a failure shaped (a retried
 * set and its attempts, bisected halves, a set waiting for the destination) is remembered by
 * offsets whenever the batch is left early, so the next fetch of those records resumes it.
 */
import type { TriggerSpec } from '../config/types.ts';
import { chunkFitsBudget } from '../chunking/budget.ts';
import { partitionKey, type KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import { decideAfterFailure, isExpired, type FailureReason } from '../failure/policy.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import type { ChunkInvoker } from './chunk-invoker.ts';
import type { Delivery } from './delivery.ts';
import { settle } from './settle.ts';
import { rememberItems, type RememberedItem, type WorkItem } from './work-plan.ts';

/** Waits before trying again a function that was not reached (throttled, unreachable): short, so it resumes soon after it answers. */
export const NOT_INVOKED_BACKOFF = { baseMs: 500, capMs: 5_000 };

export interface BatchProcessorOptions {
  trigger: TriggerSpec;
  maxPollIntervalMs: number;
  /** How long past the function's timeout an invocation may take with this invoker (Invoker.overheadMs). */
  invokerOverheadMs: number;
  events: Instrumentation;
  logger: Logger;
  invoker: ChunkInvoker;
  delivery: Delivery;
  /** A terminal view shows each failed invocation and its retry: the log line is then debug-level. */
  invocationsShown?: boolean;
  /** The most a retry waits for its fetch after its backoff: the fetch in flight, and its own with a batching window (poller.ts). */
  fetchWaitMs?: number;
}

export class BatchProcessor {
  /** Per partition: the items a failure shaped, to resume on the next fetch of their records. */
  readonly remembered = new Map<string, RememberedItem[]>();
  private warnedIgnored = false;

  constructor(private readonly o: BatchProcessorOptions) {}

  private fetchWait(): { fetchWaitMs?: number } {
    return this.o.fetchWaitMs ? { fetchWaitMs: this.o.fetchWaitMs } : {};
  }

  /**
   * What a failure shaped for the partition, unless it describes records past the log's end: the
   * topic was deleted and created again, or its log truncated, and those offsets are new records.
   * A fetch's high watermark can trail the last leader's for a moment after a leader change, so
   * `readLogEnd` (ListOffsets, which never answers a trailing end) decides when it can be asked:
   * dropped for a trailing one, the retry state let a record run past maximumRetryAttempts.
   */
  async rememberedFor(topic: string, partition: number, highWatermark: number, readLogEnd?: (partition: number, mark: number) => Promise<number>): Promise<RememberedItem[] | undefined> {
    const key = partitionKey(topic, partition);
    const items = this.remembered.get(key);
    if (!items?.some((m) => m.until >= highWatermark)) return items;
    const mark = Math.max(...items.map((m) => m.until)) + 1;
    const logEnd = readLogEnd ? await readLogEnd(partition, mark).catch(() => highWatermark) : highWatermark;
    if (!items.some((m) => m.until >= logEnd)) return items;
    this.o.logger.warn('retry state of offsets past the log end dropped: the topic was recreated or its log truncated', { partition, logEnd, offsets: items.map((m) => `${m.from}-${m.until}`) });
    this.remembered.delete(key);
    return undefined;
  }

  /** A join assigned `partitions` of `topic`: what was remembered for the others is no longer this poller's to resume. */
  keepOnly(topic: string, partitions: readonly number[]): void {
    const owned = new Set(partitions.map((p) => partitionKey(topic, p)));
    for (const key of this.remembered.keys()) if (!owned.has(key)) this.remembered.delete(key);
  }

  async process(batch: PartitionBatch, work: WorkItem[], batchEnd: number): Promise<void> {
    const key = partitionKey(batch.topic, batch.partition);
    const queue = [...work];
    try {
      await this.run(batch, queue, batchEnd);
    } finally {
      // What this fetch did not reach stays as it was; what it left undone is kept as it is now.
      const beyond = (this.remembered.get(key) ?? []).filter((m) => m.from >= batchEnd);
      const kept = [...rememberItems(queue), ...beyond];
      if (kept.length) this.remembered.set(key, kept);
      else this.remembered.delete(key);
    }
  }

  /** Leaves in `queue` exactly the items not finished, the first one as it stands. */
  private async run(batch: PartitionBatch, queue: WorkItem[], batchEnd: number): Promise<void> {
    const next = () => queue[0]?.records[0]!.offset ?? batchEnd;
    if (queue.length === 0) {
      await this.o.delivery.commit(batch, batchEnd); // every record was filtered out
      return;
    }
    while (queue.length > 0) {
      if (!batch.isActive()) return;
      // Learn of a rebalance before starting more work, not only from inside a long chunk.
      await batch.heartbeat().catch((e: unknown) => this.o.logger.warn('heartbeat failed', { partition: batch.partition, error: e }));
      if (!batch.isActive()) return;
      const item = queue[0]!;
      if (item.giveUp) {
        if (!(await this.giveUp(batch, item, item.records, item.giveUp))) return;
        queue.shift();
        if (!(await this.o.delivery.commit(batch, next()))) return;
        continue;
      }
      const expired = item.records.filter((r) => isExpired(r, this.o.trigger.failure, Date.now()));
      if (expired.length) {
        if (!(await this.giveUp(batch, item, expired, 'RecordAgeExceeded'))) return;
        item.records = item.records.filter((r) => !expired.includes(r));
        if (item.records.length === 0) {
          queue.shift();
          if (!(await this.o.delivery.commit(batch, next()))) return;
          continue;
        }
      }
      if (!this.fitsBudget(batch, item)) return;

      const result = await this.o.invoker.invoke(batch, item);
      if (!result.ok && result.error.kind === 'not-invoked') {
        // The function never ran: wait and try again, without spending an attempt of the policy.
        item.unreached = (item.unreached ?? 0) + 1;
        item.remembered = true;
        const delayMs = retryDelayMs(item.unreached, NOT_INVOKED_BACKOFF);
        const { offset } = item.records[0]!;
        this.o.logger.warn('the function was not reached; retrying without spending an attempt, the partition waits', {
          partition: batch.partition, offset, inARow: item.unreached, retryInMs: delayMs, error: `${result.error.name}: ${result.error.message}`,
        });
        this.o.events.emit('poller.retry_scheduled', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, offset, attempt: item.attempts, delayMs, ...this.fetchWait(), notInvoked: true });
        batch.pauseFor(delayMs);
        return;
      }
      const { failedFrom, error, ignoredFailures } = settle(result, item.records, this.o.trigger.failure.reportBatchItemFailures);
      if (ignoredFailures) this.warnIgnoredFailures(batch, item.records[0]!.offset, ignoredFailures);
      if (failedFrom === undefined) {
        queue.shift();
        if (!(await this.o.delivery.commit(batch, next()))) return;
        continue;
      }
      const failed = item.records.filter((r) => r.offset >= failedFrom);
      const attempts = item.attempts + 1;
      // From here the failed records are the item, whatever happens to the commit below.
      queue[0] = { records: failed, attempts, bytes: item.bytes, remembered: true, ...(error ? { error } : {}) };
      if (failedFrom > item.records[0]!.offset && !(await this.o.delivery.commit(batch, failedFrom))) return;
      const decision = decideAfterFailure(this.o.trigger.failure, failed.length, attempts);
      const from = failed[0]!.offset;
      if (decision.action === 'bisect') {
        const halves = [failed.slice(0, decision.firstHalf), failed.slice(decision.firstHalf)];
        this.o.events.emit('poller.bisected', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, firstOffset: from, sizes: halves.map((h) => h.length) });
        queue.splice(0, 1, ...halves.map((records): WorkItem => ({ records, attempts: 0, bytes: 0, remembered: true, ...(error ? { error } : {}) })));
        continue;
      }
      if (decision.action === 'give-up') {
        const gave = queue[0]!;
        gave.giveUp = decision.reason;
        if (!(await this.giveUp(batch, gave, failed, decision.reason))) return;
        queue.shift();
        if (!(await this.o.delivery.commit(batch, next()))) return;
        continue;
      }
      this.o.logger[this.o.invocationsShown ? 'debug' : 'error']('invocation failed; the records will be retried, the partition waits', {
        partition: batch.partition, offsets: `${from}-${failed[failed.length - 1]!.offset}`, attempt: attempts, retryInMs: decision.delayMs, error,
      });
      const { maximumRetryAttempts, maximumRecordAgeMs } = this.o.trigger.failure;
      const untilSuccess = maximumRetryAttempts < 0 && maximumRecordAgeMs === undefined ? { untilSuccess: true as const } : {};
      this.o.events.emit('poller.retry_scheduled', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, offset: from, attempt: attempts, delayMs: decision.delayMs, ...this.fetchWait(), ...untilSuccess });
      batch.pauseFor(decision.delayMs);
      return;
    }
  }

  /**
   * Hands `records` of `item` to the destination; false if that must wait: the member is stopping
   * or rebalancing, the send's deadline would not fit the poll budget (back to the group first),
   * or the destination is down (partition paused, item remembered with one more failed send).
   */
  giveUp(batch: PartitionBatch, item: WorkItem, records: KafkaRecord[], reason: FailureReason): Promise<boolean> {
    return this.sendGivenUp(batch, item, records, reason, true);
  }

  /** giveUp; `holdPartition` false leaves the pause to the caller (parallel chunks of the partition go on meanwhile). */
  async sendGivenUp(batch: PartitionBatch, item: WorkItem, records: KafkaRecord[], reason: FailureReason, holdPartition: boolean): Promise<boolean> {
    item.remembered = true;
    if (!batch.isActive()) return false; // stopping or rebalancing: a send starts no more than a chunk would
    if (!this.fitsBudget(batch, item, this.o.delivery.sendTimeoutMs)) return false;
    const sent = await this.o.delivery.sendToDestination(batch, records, reason, item.attempts, item.error ?? (reason === 'PayloadTooLarge' ? `the event would be ${item.bytes} bytes` : undefined));
    if (sent) return true;
    item.sendFailures = (item.sendFailures ?? 0) + 1;
    if (holdPartition) batch.pauseFor(retryDelayMs(item.sendFailures));
    return false;
  }

  /**
   * A handler that reports failed records to a trigger without ReportBatchItemFailures (what
   * `eachRecord` does) has them committed as done, as on AWS: said loudly, once per trigger, and
   * counted each time (`poller.item_failures_ignored`).
   */
  warnIgnoredFailures(batch: PartitionBatch, firstOffset: number, count: number): void {
    this.o.events.emit('poller.item_failures_ignored', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, firstOffset, count });
    if (this.warnedIgnored) return;
    this.warnedIgnored = true;
    this.o.logger.error(
      `the function returned ${count} batchItemFailures, but ${this.o.trigger.path} does not set functionResponseType: ReportBatchItemFailures, so they were ignored and the records committed as done (AWS does the same). ` +
        'Set functionResponseType: ReportBatchItemFailures on the trigger to retry them and send them to the destination. (Said once; sluice_item_failures_ignored_total counts them.)',
      { partition: batch.partition, firstOffset },
    );
  }

  /** `timeoutMs`: what the next step may take at most (default: an invocation, the function's timeout plus the invoker's overhead). */
  fitsBudget(batch: PartitionBatch, item: WorkItem, timeoutMs = this.o.trigger.timeoutMs + this.o.invokerOverheadMs): boolean {
    const now = Date.now();
    const { functionName } = this.o.trigger;
    if (chunkFitsBudget({ fetchedAt: batch.fetchedAt, now, timeoutMs, maxPollIntervalMs: this.o.maxPollIntervalMs })) return true;
    const nextOffset = item.records[0]!.offset;
    this.o.events.emit('poller.budget_exhausted', { functionName, topic: batch.topic, partition: batch.partition, nextOffset, elapsedMs: now - batch.fetchedAt, timeoutMs, maxPollIntervalMs: this.o.maxPollIntervalMs });
    this.o.logger.debug('poll budget spent; back to the group before the next chunk', { partition: batch.partition, nextOffset });
    return false;
  }
}
