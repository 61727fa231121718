/**
 * The Kafka on-failure destination: writes each record as it was produced (key, value,
 * headers, timestamp) to the destination topic on the same cluster, plus headers saying why.
 */
import type { DestinationSender } from '../failure/destinations/types.ts';
import { failureHeaders, type FailedRecord } from '../failure/failed-record.ts';
import type { Logger } from '../observe/logger.ts';
import { createKafkaClient } from './client.ts';
import { RecordProducer } from './producer.ts';
import type { KafkaSecurity } from './security.ts';

export function createKafkaDestination(uri: string, topic: string, brokers: string[], logger: Logger, security: KafkaSecurity = {}): DestinationSender {
  let producer: Promise<RecordProducer> | undefined;
  const connect = () => (producer ??= RecordProducer.connect(createKafkaClient({ brokers, logger, clientId: 'sluice-destination', retries: 2, ...security })));
  return {
    uri,
    async send(records: FailedRecord[]) {
      let p: RecordProducer;
      try {
        p = await connect();
      } catch (e) {
        producer = undefined;
        throw e;
      }
      await p.send(
        topic,
        records.map((f) => ({
          key: f.record.key,
          value: f.record.value,
          timestamp: f.record.timestamp,
          headers: [...f.record.headers.map(([n, v]): [string, Buffer] => [n, v ?? Buffer.alloc(0)]), ...failureHeaders(f)],
        })),
      );
    },
    async close() {
      const p = producer;
      producer = undefined;
      if (p) await (await p.catch(() => undefined))?.disconnect();
    },
  };
}
