/**
 * The producer port: what writes records to a topic, whichever engine's producer it is (kafkajs's
 * producer.ts, librdkafka's rdkafka/producer.ts), and the records it writes.
 */
export interface OutgoingRecord {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Array<[string, Buffer | string]>;
  partition?: number;
  /** Epoch ms; defaults to now (CreateTime). */
  timestamp?: number;
}

/** What writes records to a topic. */
export interface RecordSink {
  /** Resolves once every record is confirmed written; `signal` gives up on it (what is already on the wire may still land). */
  send(topic: string, records: OutgoingRecord[], signal?: AbortSignal): Promise<void>;
  disconnect(): Promise<void>;
  /** True once it cannot write any more (librdkafka's producer after a fatal error): the owner replaces it. */
  readonly broken?: boolean;
}
