/**
 * The Kafka on-failure destination: writes each record as it was produced (key, value,
 * headers) to the destination topic on the same cluster, plus headers saying why and where
 * from. The copy is stamped with the time it is sent, the source's timestamp and its type go
 * in headers: a copy of an old record (one that failed for its age, a replay) would otherwise
 * be older than the destination's retention.ms and deletable at once, after its source offset
 * was committed. It is written in requests that fit the topic's max.message.bytes (read from
 * the cluster, and read again after a refusal, so raising the limit takes effect without a
 * restart). A record that cannot
 * fit even alone is refused with an error naming the topic, its size and the setting to raise:
 * the partition waits on it (nothing is dropped) until it fits.
 */
import { SluiceError } from '../errors.ts';
import { BATCH_OVERHEAD_BYTES, recordBytes, splitIntoRequests, type SizedRecord } from '../failure/destinations/kafka-requests.ts';
import type { DestinationSender } from '../failure/destinations/types.ts';
import { destinationHeaders, reducedDestinationHeaders, type FailedRecord } from '../failure/failed-record.ts';
import type { Logger } from '../observe/logger.ts';
import { ClusterAdmin } from './kafkajs/admin.ts';
import { createKafkaClient } from './kafkajs/client.ts';
import { RecordProducer } from './kafkajs/producer.ts';
import type { OutgoingRecord, RecordSink } from './producer-port.ts';
import { RdkafkaProducer } from './rdkafka/producer.ts';
import type { KafkaSecurity } from './security.ts';

const CLIENT_ID = 'sluice-destination';
/** The floor of librdkafka's delivery timeout. */
const MIN_DELIVERY_TIMEOUT_MS = 1_000;

type Outgoing = OutgoingRecord & SizedRecord & { source: FailedRecord };

export interface KafkaDestinationOptions {
  brokers: string[];
  logger: Logger;
  security?: KafkaSecurity;
  /** The trigger's engine writes its failed records too: librdkafka's idempotent producer, or kafkajs's. */
  engine?: 'kafkajs' | 'librdkafka';
  /** The trigger's path, named when the librdkafka binding is missing. */
  askedBy?: string;
  /** The poller's bound on one send (Delivery's): librdkafka gives up on a record after 80 % of it. */
  sendWithinMs: number;
}

/** A producer and the limit it was built for (librdkafka's batch.size is fixed at its creation). */
interface Sink {
  producer: Promise<RecordSink>;
  maxMessageBytes: number;
}

export function createKafkaDestination(uri: string, topic: string, o: KafkaDestinationOptions): DestinationSender {
  const { brokers, logger, security = {} } = o;
  const kafka = () => createKafkaClient({ brokers, logger, clientId: CLIENT_ID, retries: 2, ...security });
  let sink: Sink | undefined;
  let limit: Promise<number> | undefined;
  const connect = (maxMessageBytes: number): Sink => {
    if (sink && (o.engine !== 'librdkafka' || sink.maxMessageBytes === maxMessageBytes)) return sink;
    // The limit changed: a new librdkafka producer builds batches by it; the old one ends its sends first.
    if (sink) void sink.producer.then((p) => p.disconnect()).catch(() => undefined);
    const producer: Promise<RecordSink> =
      o.engine === 'librdkafka'
        ? RdkafkaProducer.connect({
            askedBy: o.askedBy ?? uri, brokers, security, logger, clientId: CLIENT_ID, maxMessageBytes,
            deliveryTimeoutMs: Math.max(MIN_DELIVERY_TIMEOUT_MS, Math.floor(o.sendWithinMs * 0.8)),
          })
        : RecordProducer.connect(kafka());
    logger.debug('connecting the destination producer', { topic, engine: o.engine ?? 'kafkajs', maxMessageBytes });
    return (sink = { producer, maxMessageBytes });
  };
  // The limit is read with kafkajs's admin on either engine: the librdkafka binding has no DescribeConfigs.
  const maxMessageBytes = () =>
    (limit ??= (async () => {
      const admin = await ClusterAdmin.connect(kafka(), brokers);
      try {
        return await admin.maxMessageBytes(topic);
      } finally {
        await admin.disconnect();
      }
    })());

  return {
    uri,
    /**
     * `signal` (Delivery's deadline) stops the send: nothing more is started after it, writes
     * queued behind an earlier one are dropped, and the send rejects at once (nothing counts as
     * written unless confirmed). A failed connect or limit read is tried again next time; one
     * producer per destination (per limit on librdkafka), never one more per retry.
     */
    async send(records: FailedRecord[], signal?: AbortSignal) {
      signal?.throwIfAborted();
      const reading = maxMessageBytes();
      const max = await reading.catch((e: unknown) => {
        // Only what failed is forgotten, and only if no other send replaced it meanwhile.
        if (limit === reading) limit = undefined;
        throw e;
      });
      const current = connect(max);
      const p = await current.producer.catch((e: unknown) => {
        if (sink === current) sink = undefined;
        throw e;
      });
      signal?.throwIfAborted();
      const outgoing = records.map((f): Outgoing => ({
        source: f,
        key: f.record.key,
        value: f.record.value,
        headers: destinationHeaders(f), // stamped with the send time: the source's is in a header
      }));
      // A copy too large for the topic keeps only Sluice's headers (the source's coordinates among
      // them): the record is accounted for in the destination, and its partition goes on.
      for (const [i, o] of outgoing.entries()) {
        const bytes = BATCH_OVERHEAD_BYTES + recordBytes(o);
        if (bytes <= max) continue;
        const r = o.source.record;
        const why = `the copy with its key, value and headers is ${bytes} bytes, over max.message.bytes ${max} of "${topic}": read the record from ${r.topic}-${r.partition}@${r.offset}`;
        outgoing[i] = { source: o.source, key: null, value: null, headers: reducedDestinationHeaders(o.source, why) };
        logger.warn(`a failed record does not fit the destination topic whole: its copy keeps only the failure headers (raise max.message.bytes on "${topic}" to at least ${bytes} to keep whole copies)`, { topic: r.topic, partition: r.partition, offset: r.offset, bytes, maxMessageBytes: max });
      }
      const split = splitIntoRequests(outgoing, max, recordBytes);
      if (!split.ok) {
        limit = undefined; // read it again next time: it may have been raised
        const r = outgoing[split.index]!.source.record;
        throw new SluiceError(
          'DESTINATION_RECORD_TOO_LARGE',
          `${r.topic}-${r.partition}@${r.offset} is ${split.bytes} bytes with its failure headers, over max.message.bytes ${max} of the destination topic "${topic}". ` +
            `Raise max.message.bytes on "${topic}" to at least ${split.bytes} (kafka-configs --alter --entity-type topics --entity-name ${topic} --add-config max.message.bytes=${split.bytes}); the partition waits on this record until then.`,
          { retriable: true },
        );
      }
      for (const request of split.requests) {
        try {
          await p.send(topic, request, signal);
        } catch (e) {
          if ((e as { type?: string }).type === 'MESSAGE_TOO_LARGE') limit = undefined;
          if (p.broken && sink === current) {
            // librdkafka's producer after a fatal error writes nothing more: the next send connects a new one.
            sink = undefined;
            void p.disconnect().catch(() => undefined);
            logger.warn('the destination producer hit a fatal error; the next send connects a new one', { topic, error: (e as Error).message });
          }
          throw e;
        }
      }
    },
    async close() {
      const p = sink?.producer;
      sink = undefined;
      if (p) await (await p.catch(() => undefined))?.disconnect();
    },
  };
}
