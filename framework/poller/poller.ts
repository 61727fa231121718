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
import type { KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import { createDestination, type DestinationSender } from '../failure/destinations/index.ts';
import { compileFilters } from '../filter/compile.ts';
import type { Invoker } from '../invoke/types.ts';
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import type { KafkaSecurity } from '../kafka/security.ts';
import { createGroupMember } from '../kafka/kafkajs/group-member.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import { createRdkafkaMember } from '../kafka/rdkafka/member.ts';
import { createQueueMember } from '../queue/queue-member.ts';
import { QueueRunner } from '../queue/queue-runner.ts';
import { LogEnds, newestOf } from '../kafka/log-end.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import type { RecordDecoder } from '../schema/decoder.ts';
import { RegistryUnavailableError } from '../schema/registry.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { ParallelPartitions } from '../parallel/parallel-partitions.ts';
import { BatchProcessor } from './batch-processor.ts';
import { ChunkInvoker } from './chunk-invoker.ts';
import type { ChunkWatcher } from './chunk-watcher.ts';
import { Delivery, destinationSendWithinMs } from './delivery.ts';
import { withHeartbeats } from './keep-alive.ts';
import { settledBy } from '../kafka/settled-by.ts';
import { Supervisor } from './supervisor.ts';
import type { UncommittedFrom } from './starting-position.ts';
import { groupTuning, type GroupTuning } from './tuning.ts';
import { planWork, type Undecodable } from './work-plan.ts';

export interface PollerOptions {
  trigger: TriggerSpec;
  brokers: string[];
  /** SASL / TLS for every client of the trigger (resolved from `trigger.access`, framework/kafka/security.ts). */
  security?: KafkaSecurity;
  invoker: Invoker;
  /** Sees each chunk invoked, with its records and answer (the console's, chunk-watcher.ts). */
  watcher?: ChunkWatcher;
  logger: Logger;
  events: Instrumentation;
  tuning?: Partial<GroupTuning>;
  /** `schemaRegistryConfig`: decodes keys and values before filtering (framework/schema/). */
  decoder?: RecordDecoder;
  /** A terminal view shows each invocation's failure: logged at debug level only (service-runner.ts). */
  invocationsShown?: boolean;
  /** Lambda's request payload limit, by default 6 MB. */
  maxPayloadBytes?: number;
  /** Where its members read a partition the group never committed (poller/starting-position.ts); default earliest. */
  uncommittedFrom?: UncommittedFrom;
  /** The trigger's consumer stopped more times in a row than maxConsumerRestarts: the process should exit. */
  onGiveUp(error: SluiceError): void;
}

export interface Poller {
  readonly trigger: TriggerSpec;
  start(): Promise<void>;
  /** Finishes in-flight invocations, commits them, leaves the group; with `deadlineAt` (epoch ms), leaves then without what still runs. */
  stop(deadlineAt?: number): Promise<void>;
}

export function createPoller(o: PollerOptions): Poller {
  const { trigger, events } = o;
  const tuning = { ...groupTuning(trigger), ...o.tuning };
  const maxPayloadBytes = o.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  const logger = o.logger.child(trigger.functionName, { group: trigger.consumerGroupId, topic: trigger.topic });
  const source = { bootstrapServers: o.brokers.join(','), ...(trigger.eventSourceArn ? { eventSourceArn: trigger.eventSourceArn } : {}) };
  const matches = compileFilters(trigger.filterPatterns);
  const destination: DestinationSender | undefined =
    trigger.failure.onFailure &&
    createDestination(trigger.failure.onFailure, {
      brokers: o.brokers, logger, ...(o.security ? { security: o.security } : {}), engine: trigger.engine, askedBy: trigger.path, sendWithinMs: destinationSendWithinMs(tuning.maxPollIntervalMs),
    });
  const chunkInvoker = new ChunkInvoker(trigger, o.invoker, events, logger, tuning.heartbeatIntervalMs, source, o.watcher);
  // A retry runs at the first fetch that starts after its backoff: the one in flight may wait out
  // the fetch wait first, and with a batching window (minBytes 1 MiB) the retry's own fetch waits it too.
  const retryFetchWaitMs = tuning.maxWaitTimeMs * (tuning.minBytes > 1 ? 2 : 1);
  const delivery = new Delivery(trigger, destination, events, logger, tuning.heartbeatIntervalMs, tuning.maxPollIntervalMs, (record) => o.decoder?.mayDrop(record) ?? false);
  const processor = new BatchProcessor({
    ...(o.invocationsShown ? { invocationsShown: true } : {}),
    trigger,
    maxPollIntervalMs: tuning.maxPollIntervalMs,
    invokerOverheadMs: o.invoker.overheadMs,
    events,
    logger,
    invoker: chunkInvoker,
    delivery,
    fetchWaitMs: retryFetchWaitMs,
  });

  // parallelizationFactor > 1: up to N chunks of a partition at once, in order per key (framework/parallel/).
  let admin: Promise<ClusterAdmin> | undefined;
  const connectAdmin = (): Promise<ClusterAdmin> => {
    admin ??= ClusterAdmin.connect(kafka, o.brokers);
    admin.catch(() => (admin = undefined));
    return admin;
  };
  /** Log ends for the checks that would take a lower one for a new log (kafka/log-end.ts), ListOffsets asked within a heartbeat interval: the batch that asks sends none meanwhile. */
  const logEnds = new LogEnds(async (partition) => {
    const end = (await (await connectAdmin()).topicOffsets(trigger.topic)).find((e) => e.partition === partition)?.logEnd;
    if (end === undefined) throw new Error(`no log end for partition ${partition}`);
    return end;
  }, tuning.heartbeatIntervalMs);
  const logEndOf = logEnds.of.bind(logEnds);
  const parallel = trigger.parallelizationFactor > 1
    ? new ParallelPartitions({
        trigger, events, logger, invoker: chunkInvoker, delivery, policy: processor, heartbeatIntervalMs: tuning.heartbeatIntervalMs, fetchWaitMs: retryFetchWaitMs, invocationsShown: !!o.invocationsShown, maxPayloadBytes,
        envelopeBytes: (partition) => envelopeBytes(source, trigger.topic, partition),
        ...(trigger.engine === 'librdkafka' ? { metadataBytesAdded: 1 } : {}),
        ...(o.uncommittedFrom === 'latest' ? { uncommittedFromLatest: true } : {}),
        readCommitted: async () => (await connectAdmin()).committedWithMetadata(trigger.consumerGroupId, trigger.topic),
        readMetadataMaxBytes: async () => (await connectAdmin()).offsetMetadataMaxBytes(),
        readLogEnd: (partition, newestBelow) => logEndOf(partition, newestBelow),
      })
    : undefined;

  if (parallel) {
    const order = trigger.ordering === 'unordered'
      ? 'in no order (ordering: unordered): a failing record holds only itself'
      : 'chunks are formed by key, so keys run side by side: each key\'s records in one chunk at a time, in offset order; records without a key in partition order among themselves, one invocation at a time';
    logger.info(`up to ${trigger.parallelizationFactor} invocations of a partition at once: ${order}`);
  }

  // consumptionMode: queue: a share-group member and the runner that acknowledges record by record (framework/queue/),
  // a new pair for each member the supervisor starts (a stopped runner takes no more work).
  const queueRunner = (): QueueRunner =>
    new QueueRunner({ trigger, concurrency: tuning.concurrency, invoker: chunkInvoker, delivery, events, logger, matches, maxPayloadBytes, envelopeBytes: (partition) => envelopeBytes(source, trigger.topic, partition) });

  const registryWaits = new Map<number, number>();
  /** The batch through the schema registry; undefined when the registry did not answer and the batch waits. */
  const decode = async (batch: PartitionBatch, decoder: RecordDecoder): Promise<{ records: KafkaRecord[]; undecodable: Map<number, Undecodable> } | undefined> => {
    try {
      const decoded = await withHeartbeats(batch, tuning.heartbeatIntervalMs, logger, () => decoder.decode(batch.records));
      registryWaits.delete(batch.partition);
      const undecodable = new Map<number, Undecodable>();
      for (const d of decoded) if (!d.ok) undecodable.set(d.record.offset, { reason: d.reason, error: d.error });
      return { records: decoded.map((d) => d.record), undecodable };
    } catch (e) {
      if (!(e instanceof RegistryUnavailableError)) throw e;
      const inARow = (registryWaits.get(batch.partition) ?? 0) + 1;
      registryWaits.set(batch.partition, inARow);
      const delayMs = retryDelayMs(inARow);
      const firstOffset = batch.records[0]!.offset;
      logger.warn('schema registry unavailable: the partition waits and asks again; nothing is skipped', { partition: batch.partition, offset: firstOffset, inARow, retryInMs: delayMs, error: e.message });
      events.emit('poller.registry_unavailable', { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, firstOffset, inARow, delayMs, error: e.message });
      batch.pauseFor(delayMs);
      return undefined;
    }
  };

  const onBatch = async (batch: PartitionBatch): Promise<void> => {
    const { topic, partition } = batch;
    if (batch.records.length === 0) return;
    const last = batch.records[batch.records.length - 1]!.offset;
    events.emit('poller.batch_received', { functionName: trigger.functionName, topic, partition, count: batch.records.length, firstOffset: batch.records[0]!.offset, lastOffset: last, lag: Math.max(0, batch.highWatermark - last - 1), highWatermark: batch.highWatermark });
    const decoded = o.decoder ? await decode(batch, o.decoder) : { records: batch.records, undecodable: undefined };
    if (!decoded) return;
    const { records } = decoded;
    // The decoder may end the batch early (what it may inflate was spent): the rest is fetched again.
    const batchEnd = records.length < batch.records.length ? records[records.length - 1]!.offset + 1 : last + 1;
    const limits = { batchSize: trigger.batchSize, maxPayloadBytes, envelopeBytes: envelopeBytes(source, topic, partition) };
    const remembered = parallel ? [] : await processor.rememberedFor(topic, partition, batch.highWatermark, (p, mark) => logEndOf(p, newestOf(batch.records, mark)));
    const work = planWork(records, matches, limits, remembered, decoded.undecodable);
    const kept = work.reduce((n, w) => n + w.records.length, 0);
    if (trigger.filterPatterns.length && kept < records.length) events.emit('poller.filtered', { functionName: trigger.functionName, topic, partition, count: records.length - kept });
    try {
      if (parallel) await parallel.process(batch, records, work, batchEnd);
      else await processor.process(batch, work, batchEnd);
    } finally {
      logEnds.seen(partition, batch.records);
    }
  };

  // Retry state is kept across member restarts, for the partitions the trigger still owns.
  const forgetLost = events.on('group.join', (e) => {
    if (e.groupId !== trigger.consumerGroupId) return;
    processor.keepOnly(trigger.topic, e.assignment[trigger.topic] ?? []);
    parallel?.keepOnly(trigger.topic, e.assignment[trigger.topic] ?? []);
  });

  const kafka = createKafkaClient({ brokers: o.brokers, clientId: `sluice-${trigger.functionName}`, logger, ...o.security });
  const supervisor = new Supervisor({
    trigger,
    events,
    logger,
    onGiveUp: o.onGiveUp,
    createMember: (hooks) => {
      if (trigger.consumptionMode === 'queue') return createQueueMember({ trigger, kafka, brokers: o.brokers, runner: queueRunner(), concurrency: tuning.concurrency, logger, events, onCrash: hooks.onCrash });
      const common = {
        groupId: trigger.consumerGroupId,
        topic: trigger.topic,
        fromBeginning: o.uncommittedFrom !== 'latest',
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
        onCrash: hooks.onCrash,
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      };
      if (trigger.engine === 'librdkafka') {
        return createRdkafkaMember({
          ...common, brokers: o.brokers, clientId: `sluice-${trigger.functionName}`, groupProtocol: trigger.groupProtocol, askedBy: trigger.path,
          ...(o.security ? { security: o.security } : {}),
          ...(trigger.groupInstanceId ? { groupInstanceId: trigger.groupInstanceId } : {}),
          readLogEnd: (_topic, partition, newestBelow) => logEndOf(partition, newestBelow),
        });
      }
      return createGroupMember({ kafka, ...common, ...hooks, readLogEnd: (_topic, partition, newestBelow) => logEndOf(partition, newestBelow) });
    },
  });
  return {
    trigger,
    start: () => supervisor.start(),
    async stop(deadlineAt) {
      await supervisor.stop(deadlineAt);
      forgetLost();
      if (admin) await (await admin.catch(() => undefined))?.disconnect().catch(() => undefined);
      const closing = destination?.close();
      // A destination write kafkajs cannot call back may still run: it does not hold the exit past the deadline (a second at least, to disconnect).
      if (closing && deadlineAt !== undefined && !(await settledBy(closing, Math.max(deadlineAt, Date.now() + 1_000)))) {
        logger.warn('the on-failure destination did not close by the stop deadline (a write already sent may still run): not waiting for it');
      } else await closing;
    },
  };
}
