/**
 * A Kafka record as Sluice carries it between the client adapter, the chunker and the event
 * builder. No kafkajs type crosses this line.
 */
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
}

/** `<topic>-<partition>`: the key of `event.records` and of `itemIdentifier.partition`. */
export const partitionKey = (topic: string, partition: number): string => `${topic}-${partition}`;
