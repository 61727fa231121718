/**
 * One trigger's loop: fetch -> chunk -> invoke -> settle -> commit. The group member hands
 * over one partition's batch at a time (partitions run concurrently, chunks of a partition in
 * order); an offset is committed only after the invocation that covered it succeeded.
 */
import type { TriggerSpec } from '../config/types.ts';
import { chunkRecords } from '../chunking/chunker.ts';
import { buildEvent } from '../event/build-event.ts';
import { partitionKey, type KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import { createKafkaClient } from '../kafka/client.ts';
import { createGroupMember, type GroupMember, type PartitionBatch } from '../kafka/group-member.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { groupTuning, type GroupTuning } from './tuning.ts';

export interface PollerOptions {
  trigger: TriggerSpec;
  brokers: string[];
  invoker: Invoker;
  logger: Logger;
  events: Instrumentation;
  tuning?: Partial<GroupTuning>;
}

export interface Poller {
  readonly trigger: TriggerSpec;
  start(): Promise<void>;
  /** Finishes in-flight invocations, commits them, leaves the group. */
  stop(): Promise<void>;
}

export function createPoller(o: PollerOptions): Poller {
  const { trigger, invoker, events } = o;
  const tuning = { ...groupTuning(trigger), ...o.tuning };
  const logger = o.logger.child(trigger.functionName, { group: trigger.consumerGroupId, topic: trigger.topic });
  const source = { bootstrapServers: o.brokers.join(',') };
  /** Failures in a row per partition, reset by a success. */
  const failures = new Map<string, number>();

  const invokeWithHeartbeats = async (batch: PartitionBatch, event: unknown): Promise<InvokeResult> => {
    // The handler runs in a worker thread, so this thread stays free to keep the session alive.
    const timer = setInterval(() => {
      batch.heartbeat().catch((e: unknown) => logger.warn('heartbeat failed', { partition: batch.partition, error: e }));
    }, tuning.heartbeatIntervalMs);
    try {
      return await invoker.invoke({ functionName: trigger.functionName, event, timeoutMs: trigger.timeoutMs });
    } finally {
      clearInterval(timer);
    }
  };

  const processChunk = async (batch: PartitionBatch, chunk: KafkaRecord[]): Promise<boolean> => {
    const key = partitionKey(batch.topic, batch.partition);
    const first = chunk[0]!.offset;
    const last = chunk[chunk.length - 1]!.offset;
    const attempt = (failures.get(key) ?? 0) + 1;
    const base = { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, count: chunk.length, firstOffset: first, lastOffset: last, attempt };
    events.emit('poller.chunk_start', base);
    const result = await invokeWithHeartbeats(batch, buildEvent(chunk, source));
    events.emit('poller.chunk_end', { ...base, ok: result.ok, durationMs: result.durationMs, ...(result.ok ? {} : { error: result.error.message }) });

    if (result.ok) {
      failures.delete(key);
      await batch.commit(last + 1);
      events.emit('poller.commit', { functionName: trigger.functionName, groupId: trigger.consumerGroupId, topic: batch.topic, partition: batch.partition, offset: last + 1 });
      return true;
    }
    failures.set(key, attempt);
    const delayMs = retryDelayMs(attempt);
    logger.error(`invocation failed (${result.error.kind}); the chunk will be retried, the partition waits`, {
      partition: batch.partition,
      offsets: `${first}-${last}`,
      attempt,
      retryInMs: delayMs,
      error: `${result.error.name}: ${result.error.message}`,
      requestId: result.requestId,
    });
    events.emit('poller.retry_scheduled', { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, offset: first, attempt, delayMs });
    // Nothing past the failed chunk is committed; the partition is fetched again from it after the pause.
    batch.pauseFor(delayMs);
    return false;
  };

  const onBatch = async (batch: PartitionBatch): Promise<void> => {
    if (batch.records.length === 0) return;
    const first = batch.records[0]!.offset;
    const last = batch.records[batch.records.length - 1]!.offset;
    events.emit('poller.batch_received', {
      functionName: trigger.functionName, topic: batch.topic, partition: batch.partition,
      count: batch.records.length, firstOffset: first, lastOffset: last, lag: Math.max(0, batch.highWatermark - last - 1),
    });
    for (const chunk of chunkRecords(batch.records, { batchSize: trigger.batchSize })) {
      if (!batch.isActive()) return;
      if (!(await processChunk(batch, chunk))) return;
    }
  };

  let member: GroupMember | undefined;
  return {
    trigger,
    async start() {
      const kafka = createKafkaClient({ brokers: o.brokers, clientId: `sluice-${trigger.functionName}`, logger });
      member = createGroupMember({
        kafka,
        groupId: trigger.consumerGroupId,
        topic: trigger.topic,
        fromBeginning: trigger.startingPosition !== 'LATEST',
        sessionTimeoutMs: tuning.sessionTimeoutMs,
        rebalanceTimeoutMs: tuning.maxPollIntervalMs,
        heartbeatIntervalMs: tuning.heartbeatIntervalMs,
        maxWaitTimeMs: tuning.maxWaitTimeMs,
        minBytes: tuning.minBytes,
        maxBytesPerPartition: tuning.maxBytesPerPartition,
        concurrency: tuning.concurrency,
        logger,
        events,
        onBatch,
      });
      await member.start();
    },
    async stop() {
      await member?.stop();
    },
  };
}
