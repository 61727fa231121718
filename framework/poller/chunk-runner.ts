/**
 * Invokes one chunk and settles it: heartbeats while the handler runs (it runs in a worker
 * thread, so this thread stays free even if the handler blocks its own), then commits the
 * offset the outcome allows, or pauses the partition for a backoff so the chunk is retried.
 */
import type { TriggerSpec } from '../config/types.ts';
import { partitionKey, type KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import type { PartitionBatch } from '../kafka/group-member.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { committableOffset, type RecordOutcome } from './offsets.ts';

export interface ChunkRunnerOptions {
  trigger: TriggerSpec;
  invoker: Invoker;
  events: Instrumentation;
  logger: Logger;
  heartbeatIntervalMs: number;
  buildEvent(records: KafkaRecord[]): unknown;
}

export class ChunkRunner {
  /** Failures in a row per partition, reset by a success. */
  private readonly failures = new Map<string, number>();

  constructor(private readonly o: ChunkRunnerOptions) {}

  /** True if the chunk succeeded and its offsets were committed: the batch may go on. */
  async run(batch: PartitionBatch, chunk: KafkaRecord[], bytes: number): Promise<boolean> {
    const { trigger, events, logger } = this.o;
    const key = partitionKey(batch.topic, batch.partition);
    const first = chunk[0]!.offset;
    const last = chunk[chunk.length - 1]!.offset;
    const attempt = (this.failures.get(key) ?? 0) + 1;
    const base = { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, count: chunk.length, firstOffset: first, lastOffset: last, attempt, bytes, fetchedAt: batch.fetchedAt };
    events.emit('poller.chunk_start', base);
    const result = await this.invokeWithHeartbeats(batch, this.o.buildEvent(chunk));
    events.emit('poller.chunk_end', { ...base, ok: result.ok, durationMs: result.durationMs, ...(result.ok ? {} : { error: result.error.message }) });

    const outcome: RecordOutcome = result.ok ? 'succeeded' : 'failed';
    const next = committableOffset(chunk.map((r) => ({ offset: r.offset, outcome })));
    if (next !== undefined) {
      this.failures.delete(key);
      return this.commit(batch, next);
    }
    if (result.ok) return true;
    this.failures.set(key, attempt);
    const delayMs = retryDelayMs(attempt);
    logger.error(`invocation failed (${result.error.kind}); the chunk will be retried, the partition waits`, {
      partition: batch.partition, offsets: `${first}-${last}`, attempt, retryInMs: delayMs,
      error: `${result.error.name}: ${result.error.message}`, requestId: result.requestId,
    });
    events.emit('poller.retry_scheduled', { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, offset: first, attempt, delayMs });
    // Nothing past the failed chunk is committed; the partition is fetched again from it after the pause.
    batch.pauseFor(delayMs);
    return false;
  }

  /** A record too large for any invocation: logged and committed past, so the partition goes on. */
  async setAsideOversized(batch: PartitionBatch, record: KafkaRecord, bytes: number, limit: number): Promise<boolean> {
    const { trigger, events, logger } = this.o;
    logger.error('record too large for one invocation: skipped (the failure policy will send such records to a destination)', {
      topic: record.topic, partition: record.partition, offset: record.offset, eventBytes: bytes, limitBytes: limit,
    });
    events.emit('poller.record_oversized', { functionName: trigger.functionName, topic: record.topic, partition: record.partition, offset: record.offset, bytes, limit });
    return this.commit(batch, committableOffset([{ offset: record.offset, outcome: 'set-aside' }])!);
  }

  private async commit(batch: PartitionBatch, offset: number): Promise<boolean> {
    const { trigger, events, logger } = this.o;
    const ids = { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, offset };
    const result = await batch.commit(offset);
    if (result.ok) {
      events.emit('poller.commit', { ...ids, groupId: trigger.consumerGroupId });
      return true;
    }
    logger.warn(
      result.reason === 'not-owned'
        ? 'partition no longer owned: commit not sent; its new owner resumes from the last committed offset'
        : 'commit refused by the coordinator; the records will be processed again by the partition owner',
      { partition: batch.partition, offset, error: result.error },
    );
    events.emit('poller.commit_refused', { ...ids, reason: result.reason, ...(result.error ? { error: result.error.message } : {}) });
    return false;
  }

  private async invokeWithHeartbeats(batch: PartitionBatch, event: unknown): Promise<InvokeResult> {
    const timer = setInterval(() => {
      batch.heartbeat().catch((e: unknown) => this.o.logger.warn('heartbeat failed', { partition: batch.partition, error: e }));
    }, this.o.heartbeatIntervalMs);
    try {
      return await this.o.invoker.invoke({ functionName: this.o.trigger.functionName, event, timeoutMs: this.o.trigger.timeoutMs });
    } finally {
      clearInterval(timer);
    }
  }
}
