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
import { recordBytes, splitIntoRequests, type SizedRecord } from '../failure/destinations/kafka-requests.ts';
import type { DestinationSender } from '../failure/destinations/types.ts';
import { destinationHeaders, type FailedRecord } from '../failure/failed-record.ts';
import type { Logger } from '../observe/logger.ts';
import { ClusterAdmin } from './admin.ts';
import { createKafkaClient } from './client.ts';
import { RecordProducer, type OutgoingRecord } from './producer.ts';
import type { KafkaSecurity } from './security.ts';

type Outgoing = OutgoingRecord & SizedRecord & { source: FailedRecord };

export function createKafkaDestination(uri: string, topic: string, brokers: string[], logger: Logger, security: KafkaSecurity = {}): DestinationSender {
  const kafka = () => createKafkaClient({ brokers, logger, clientId: 'sluice-destination', retries: 2, ...security });
  let producer: Promise<RecordProducer> | undefined;
  let limit: Promise<number> | undefined;
  const connect = () => (producer ??= RecordProducer.connect(kafka()));
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
     * written unless confirmed). A failed connect is tried again next time; a producer that
     * connected is kept when only the limit could not be read (a topic gone, DescribeConfigs
     * denied): one client per destination, never one more per retry.
     */
    async send(records: FailedRecord[], signal?: AbortSignal) {
      signal?.throwIfAborted();
      const pending = [connect(), maxMessageBytes()] as const;
      const [connected, read] = await Promise.allSettled(pending);
      // Only what failed is forgotten, and only if no other send replaced it meanwhile.
      if (connected.status === 'rejected' && producer === pending[0]) producer = undefined;
      if (read.status === 'rejected' && limit === pending[1]) limit = undefined;
      if (connected.status === 'rejected') throw connected.reason;
      if (read.status === 'rejected') throw read.reason;
      signal?.throwIfAborted();
      const p = connected.value;
      const max = read.value;
      const outgoing = records.map((f): Outgoing => ({
        source: f,
        key: f.record.key,
        value: f.record.value,
        headers: destinationHeaders(f), // stamped with the send time: the source's is in a header
      }));
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
          throw e;
        }
      }
    },
    async close() {
      const p = producer;
      producer = undefined;
      if (p) await (await p.catch(() => undefined))?.disconnect();
    },
  };
}
