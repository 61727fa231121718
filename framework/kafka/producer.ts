/** Sends records: used by `npm run produce`, examples and tests. */
import { Partitioners, type Kafka, type Producer } from 'kafkajs';

export interface OutgoingRecord {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Array<[string, Buffer | string]>;
  partition?: number;
  /** Epoch ms; defaults to now (CreateTime). */
  timestamp?: number;
}

export class RecordProducer {
  private constructor(private readonly producer: Producer) {}

  static async connect(kafka: Kafka): Promise<RecordProducer> {
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
    await producer.connect();
    return new RecordProducer(producer);
  }

  /** Sends in order, acknowledged by all in-sync replicas. */
  async send(topic: string, records: OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.producer.send({
      topic,
      acks: -1,
      messages: records.map((r) => {
        const headers: Record<string, Buffer[]> = {};
        for (const [name, value] of r.headers ?? []) (headers[name] ??= []).push(Buffer.isBuffer(value) ? value : Buffer.from(value));
        return {
          key: r.key ?? null,
          value: r.value,
          headers,
          ...(r.partition === undefined ? {} : { partition: r.partition }),
          ...(r.timestamp === undefined ? {} : { timestamp: String(r.timestamp) }),
        };
      }),
    });
  }

  async disconnect(): Promise<void> {
    await this.producer.disconnect();
  }
}
