/**
 * A Kafka record as Sluice carries it between the client adapter, the chunker and the event
 * builder. No kafkajs type crosses this line.
 */
import type { InputFailureReason } from '../failure/policy.ts';

export type TimestampType = 'CREATE_TIME' | 'LOG_APPEND_TIME';

export interface KafkaRecord {
  topic: string;
  partition: number;
  /** Offsets fit a double far beyond any real log (2^53). */
  offset: number;
  timestamp: number;
  timestampType: TimestampType;
  key: Buffer | null;
  value: Buffer | null;
  /** In wire order; a header name may repeat. A null header value is kept as null. */
  headers: Array<[name: string, value: Buffer | null]>;
  /**
   * Queue mode only: the share group's delivery count (1 at the first delivery, 2 after one
   * release or lock expiry...). The event carries it as `deliveryCount`, Sluice's addition.
   */
  deliveryCount?: number;
  /** Set when a schema registry decoded the key (`key` then holds what the event delivers). */
  keySchemaMetadata?: SchemaMetadata;
  /** Set when a schema registry decoded the value (`value` then holds what the event delivers). */
  valueSchemaMetadata?: SchemaMetadata;
  /** The key and value as read from Kafka, when a schema registry changed them: what a destination receives. */
  received?: { key: Buffer | null; value: Buffer | null };
  /** The decoded value as JSON text, for filter patterns, when `value` is not that text (the SOURCE format). */
  filterValue?: Buffer;
  /**
   * Set when the record could not be read as one (framework/kafka/kafkajs/records.ts): it is never
   * decoded, filtered or invoked, only sent through the failure policy with this reason.
   */
  unreadable?: { reason: InputFailureReason; error: string };
}

/** AWS's `keySchemaMetadata` / `valueSchemaMetadata`: the registry's data format and schema id. */
export interface SchemaMetadata {
  dataFormat: 'AVRO' | 'PROTOBUF' | 'JSON';
  /** A Confluent id as decimal text, or a Glue schema version UUID. */
  schemaId: string;
}

/** The record as it was read from Kafka, before any schema registry decoding. */
export function asReceived(r: KafkaRecord): KafkaRecord {
  if (!r.received) return r;
  return { topic: r.topic, partition: r.partition, offset: r.offset, timestamp: r.timestamp, timestampType: r.timestampType, key: r.received.key, value: r.received.value, headers: r.headers };
}

/** `<topic>-<partition>`: the key of `event.records` and of `itemIdentifier.partition`. */
export const partitionKey = (topic: string, partition: number): string => `${topic}-${partition}`;
