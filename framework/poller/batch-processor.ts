/**
 * Works through one partition's batch: filter -> chunks -> invoke -> settle -> commit, with
 * AWS's failure policy. Within a partition, items run strictly in order; the committed offset
 * only ever passes records that succeeded, were filtered out, or reached the destination.
 * A set to retry pauses the partition for a backoff and is fetched again; a destination that
 * is down pauses it the same way, so nothing is dropped.
 */
import type { TriggerSpec } from '../config/types.ts';
import { chunkFitsBudget } from '../chunking/budget.ts';
import { partitionKey, type KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import { decideAfterFailure, isExpired, type FailureReason } from '../failure/policy.ts';
import type { PartitionBatch } from '../kafka/group-member.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import type { ChunkInvoker } from './chunk-invoker.ts';
import type { Delivery } from './delivery.ts';
import { settle } from './settle.ts';
import type { PendingSet, WorkItem } from './work-plan.ts';

export interface BatchProcessorOptions {
  trigger: TriggerSpec;
  maxPollIntervalMs: number;
  events: Instrumentation;
  logger: Logger;
  invoker: ChunkInvoker;
  delivery: Delivery;
}

export class BatchProcessor {
  /** Per partition: the failing set to come back to. */
  readonly pending = new Map<string, PendingSet>();

  constructor(private readonly o: BatchProcessorOptions) {}

  async process(batch: PartitionBatch, work: WorkItem[], batchEnd: number): Promise<void> {
    const key = partitionKey(batch.topic, batch.partition);
    const queue = [...work];
    if (queue.length === 0) {
      await this.o.delivery.commit(batch, batchEnd); // every record was filtered out
      return;
    }
    while (queue.length > 0) {
      if (!batch.isActive()) return;
      const item = queue.shift()!;
      const next = queue[0]?.records[0]!.offset ?? batchEnd;
      if (item.giveUp) {
        if (!(await this.giveUp(batch, key, item, item.giveUp))) return;
        if (!(await this.o.delivery.commit(batch, next))) return;
        continue;
      }
      const expired = item.records.filter((r) => isExpired(r, this.o.trigger.failure, Date.now()));
      if (expired.length) {
        if (!(await this.giveUp(batch, key, { ...item, records: expired }, 'RecordAgeExceeded'))) return;
        item.records = item.records.filter((r) => !expired.includes(r));
        if (item.records.length === 0) {
          if (!(await this.o.delivery.commit(batch, next))) return;
          continue;
        }
      }
      if (!this.fitsBudget(batch, item)) return;

      const result = await this.o.invoker.invoke(batch, item);
      const { failedFrom, error } = settle(result, item.records, this.o.trigger.failure.reportBatchItemFailures);
      if (failedFrom === undefined) {
        this.pending.delete(key);
        if (!(await this.o.delivery.commit(batch, next))) return;
        continue;
      }
      if (failedFrom > item.records[0]!.offset && !(await this.o.delivery.commit(batch, failedFrom))) return;
      const failed = item.records.filter((r) => r.offset >= failedFrom);
      const attempts = item.attempts + 1;
      const decision = decideAfterFailure(this.o.trigger.failure, failed.length, attempts);
      const from = failed[0]!.offset;
      if (decision.action === 'bisect') {
        const halves = [failed.slice(0, decision.firstHalf), failed.slice(decision.firstHalf)];
        this.o.events.emit('poller.bisected', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, firstOffset: from, sizes: halves.map((h) => h.length) });
        queue.unshift(...halves.map((records) => ({ records, attempts: 0, bytes: 0, ...(error ? { error } : {}) })));
        continue;
      }
      if (decision.action === 'give-up') {
        if (!(await this.giveUp(batch, key, { ...item, records: failed, attempts, ...(error ? { error } : {}) }, decision.reason))) return;
        if (!(await this.o.delivery.commit(batch, next))) return;
        continue;
      }
      this.pending.set(key, { from, until: failed[failed.length - 1]!.offset, attempts, sendFailures: 0, ...(error ? { error } : {}) });
      this.o.logger.error('invocation failed; the records will be retried, the partition waits', {
        partition: batch.partition, offsets: `${from}-${failed[failed.length - 1]!.offset}`, attempt: attempts, retryInMs: decision.delayMs, error,
      });
      this.o.events.emit('poller.retry_scheduled', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, offset: from, attempt: attempts, delayMs: decision.delayMs });
      batch.pauseFor(decision.delayMs);
      return;
    }
  }

  /** Hands records to the destination; false (partition paused, set remembered) if it is down. */
  private async giveUp(batch: PartitionBatch, key: string, item: WorkItem, reason: FailureReason): Promise<boolean> {
    const sent = await this.o.delivery.sendToDestination(item.records, reason, item.attempts, item.error ?? (reason === 'PayloadTooLarge' ? `the event would be ${item.bytes} bytes` : undefined));
    if (sent) {
      this.pending.delete(key);
      return true;
    }
    const before = this.pending.get(key);
    const sendFailures = (before?.from === item.records[0]!.offset ? before.sendFailures : 0) + 1;
    const records: KafkaRecord[] = item.records;
    this.pending.set(key, { from: records[0]!.offset, until: records[records.length - 1]!.offset, attempts: item.attempts, giveUp: reason, sendFailures, ...(item.error ? { error: item.error } : {}) });
    batch.pauseFor(retryDelayMs(sendFailures));
    return false;
  }

  private fitsBudget(batch: PartitionBatch, item: WorkItem): boolean {
    const now = Date.now();
    const { timeoutMs, functionName } = this.o.trigger;
    if (chunkFitsBudget({ fetchedAt: batch.fetchedAt, now, timeoutMs, maxPollIntervalMs: this.o.maxPollIntervalMs })) return true;
    const nextOffset = item.records[0]!.offset;
    this.o.events.emit('poller.budget_exhausted', { functionName, topic: batch.topic, partition: batch.partition, nextOffset, elapsedMs: now - batch.fetchedAt, timeoutMs, maxPollIntervalMs: this.o.maxPollIntervalMs });
    this.o.logger.debug('poll budget spent; back to the group before the next chunk', { partition: batch.partition, nextOffset });
    return false;
  }
}
