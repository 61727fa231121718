/**
 * One trigger's loop: fetch -> chunk -> invoke -> settle -> commit. The group member hands
 * over one partition's batch at a time (partitions run concurrently, chunks of a partition in
 * order); an offset is committed only after the invocation that covered it succeeded.
 * Before each chunk the poller checks the poll-interval budget and the group's state: it
 * starts a chunk only if the chunk's worst case still ends inside the budget and no
 * rebalance has begun; otherwise it returns to the group with what is done committed.
 */
import type { TriggerSpec } from '../config/types.ts';
import { chunkFitsBudget } from '../chunking/budget.ts';
import { MAX_PAYLOAD_BYTES, planChunks } from '../chunking/chunker.ts';
import { buildEvent } from '../event/build-event.ts';
import { envelopeBytes } from '../event/event-size.ts';
import type { Invoker } from '../invoke/types.ts';
import { createKafkaClient } from '../kafka/client.ts';
import { createGroupMember, type GroupMember, type PartitionBatch } from '../kafka/group-member.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { ChunkRunner } from './chunk-runner.ts';
import { groupTuning, type GroupTuning } from './tuning.ts';

export interface PollerOptions {
  trigger: TriggerSpec;
  brokers: string[];
  invoker: Invoker;
  logger: Logger;
  events: Instrumentation;
  tuning?: Partial<GroupTuning>;
  /** Lambda's request payload limit, by default 6 MB. */
  maxPayloadBytes?: number;
}

export interface Poller {
  readonly trigger: TriggerSpec;
  start(): Promise<void>;
  /** Finishes in-flight invocations, commits them, leaves the group. */
  stop(): Promise<void>;
}

export function createPoller(o: PollerOptions): Poller {
  const { trigger, events } = o;
  const tuning = { ...groupTuning(trigger), ...o.tuning };
  const maxPayloadBytes = o.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  const logger = o.logger.child(trigger.functionName, { group: trigger.consumerGroupId, topic: trigger.topic });
  const source = { bootstrapServers: o.brokers.join(',') };
  const runner = new ChunkRunner({ trigger, invoker: o.invoker, events, logger, heartbeatIntervalMs: tuning.heartbeatIntervalMs, buildEvent: (records) => buildEvent(records, source) });
  const ids = { functionName: trigger.functionName };

  const onBatch = async (batch: PartitionBatch): Promise<void> => {
    if (batch.records.length === 0) return;
    const { topic, partition, records } = batch;
    const last = records[records.length - 1]!.offset;
    events.emit('poller.batch_received', { ...ids, topic, partition, count: records.length, firstOffset: records[0]!.offset, lastOffset: last, lag: Math.max(0, batch.highWatermark - last - 1) });

    const steps = planChunks(records, { batchSize: trigger.batchSize, maxPayloadBytes, envelopeBytes: envelopeBytes(source, topic, partition) });
    for (const step of steps) {
      if (!batch.isActive()) return;
      if (step.kind === 'oversized') {
        if (!(await runner.setAsideOversized(batch, step.record, step.bytes, maxPayloadBytes))) return;
        continue;
      }
      const now = Date.now();
      if (!chunkFitsBudget({ fetchedAt: batch.fetchedAt, now, timeoutMs: trigger.timeoutMs, maxPollIntervalMs: tuning.maxPollIntervalMs })) {
        events.emit('poller.budget_exhausted', { ...ids, topic, partition, nextOffset: step.records[0]!.offset, elapsedMs: now - batch.fetchedAt, timeoutMs: trigger.timeoutMs, maxPollIntervalMs: tuning.maxPollIntervalMs });
        logger.debug('poll budget spent; back to the group before the next chunk', { partition, nextOffset: step.records[0]!.offset });
        return;
      }
      if (!(await runner.run(batch, step.records, step.bytes))) return;
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
