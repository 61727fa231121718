/**
 * One trigger's loop: fetch -> filter -> chunk -> invoke -> settle -> commit. The group
 * member hands over one partition's batch at a time (partitions run concurrently, the work
 * of a partition strictly in order); the batch processor applies the failure policy and
 * commits only what succeeded, was filtered out, or reached the on-failure destination.
 */
import type { TriggerSpec } from '../config/types.ts';
import type { SluiceError } from '../errors.ts';
import { MAX_PAYLOAD_BYTES } from '../chunking/chunker.ts';
import { envelopeBytes } from '../event/event-size.ts';
import { partitionKey } from '../event/record.ts';
import { createDestination, type DestinationSender } from '../failure/destinations/index.ts';
import { compileFilters } from '../filter/compile.ts';
import type { Invoker } from '../invoke/types.ts';
import { createKafkaClient } from '../kafka/client.ts';
import type { KafkaSecurity } from '../kafka/security.ts';
import { createGroupMember, type PartitionBatch } from '../kafka/group-member.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { BatchProcessor } from './batch-processor.ts';
import { ChunkInvoker } from './chunk-invoker.ts';
import { Delivery } from './delivery.ts';
import { Supervisor } from './supervisor.ts';
import { groupTuning, type GroupTuning } from './tuning.ts';
import { planWork } from './work-plan.ts';

export interface PollerOptions {
  trigger: TriggerSpec;
  brokers: string[];
  /** SASL / TLS for every client of the trigger (resolved from `trigger.access`, framework/kafka/security.ts). */
  security?: KafkaSecurity;
  invoker: Invoker;
  logger: Logger;
  events: Instrumentation;
  tuning?: Partial<GroupTuning>;
  /** Lambda's request payload limit, by default 6 MB. */
  maxPayloadBytes?: number;
  /** The trigger's consumer stopped more times in a row than maxConsumerRestarts: the process should exit. */
  onGiveUp(error: SluiceError): void;
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
  const source = { bootstrapServers: o.brokers.join(','), ...(trigger.eventSourceArn ? { eventSourceArn: trigger.eventSourceArn } : {}) };
  const matches = compileFilters(trigger.filterPatterns);
  const destination: DestinationSender | undefined = trigger.failure.onFailure && createDestination(trigger.failure.onFailure, o.brokers, logger, o.security);
  const processor = new BatchProcessor({
    trigger,
    maxPollIntervalMs: tuning.maxPollIntervalMs,
    invokerOverheadMs: o.invoker.overheadMs,
    events,
    logger,
    invoker: new ChunkInvoker(trigger, o.invoker, events, logger, tuning.heartbeatIntervalMs, source),
    delivery: new Delivery(trigger, destination, events, logger, tuning.heartbeatIntervalMs, tuning.maxPollIntervalMs),
  });

  const onBatch = async (batch: PartitionBatch): Promise<void> => {
    const { topic, partition, records } = batch;
    if (records.length === 0) return;
    const last = records[records.length - 1]!.offset;
    events.emit('poller.batch_received', { functionName: trigger.functionName, topic, partition, count: records.length, firstOffset: records[0]!.offset, lastOffset: last, lag: Math.max(0, batch.highWatermark - last - 1), highWatermark: batch.highWatermark });
    const limits = { batchSize: trigger.batchSize, maxPayloadBytes, envelopeBytes: envelopeBytes(source, topic, partition) };
    const work = planWork(records, matches, limits, processor.remembered.get(partitionKey(topic, partition)));
    const kept = work.reduce((n, w) => n + w.records.length, 0);
    if (trigger.filterPatterns.length && kept < records.length) events.emit('poller.filtered', { functionName: trigger.functionName, topic, partition, count: records.length - kept });
    await processor.process(batch, work, last + 1);
  };

  const kafka = createKafkaClient({ brokers: o.brokers, clientId: `sluice-${trigger.functionName}`, logger, ...o.security });
  const supervisor = new Supervisor({
    trigger,
    events,
    logger,
    onGiveUp: o.onGiveUp,
    createMember: (hooks) =>
      createGroupMember({
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
        ...hooks,
      }),
  });
  return {
    trigger,
    start: () => supervisor.start(),
    async stop() {
      await supervisor.stop();
      await destination?.close();
    },
  };
}
