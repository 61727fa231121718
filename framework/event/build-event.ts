import type { SelfManagedKafkaEvent, SelfManagedKafkaRecord, MSKEvent } from 'aws-lambda';
import { partitionKey, type KafkaRecord } from './record.ts';

/**
 * Records -> the event AWS's Kafka event source mapping delivers (DESIGN §2.1), byte for byte:
 * key and value base64 (null stays null), one object per header with its bytes as numbers.
 */
export interface EventSource {
  /** Comma-separated, as AWS sends it. */
  bootstrapServers: string;
  /** Set for MSK: the event then says `aws:kafka` and carries `eventSourceArn`. */
  eventSourceArn?: string;
}

export function buildEvent(records: readonly KafkaRecord[], source: EventSource): SelfManagedKafkaEvent | MSKEvent {
  const grouped: Record<string, SelfManagedKafkaRecord[]> = {};
  for (const record of records) {
    const key = partitionKey(record.topic, record.partition);
    (grouped[key] ??= []).push(toEventRecord(record));
  }
  if (source.eventSourceArn !== undefined) {
    return {
      eventSource: 'aws:kafka',
      eventSourceArn: source.eventSourceArn,
      bootstrapServers: source.bootstrapServers,
      records: grouped,
    };
  }
  return { eventSource: 'SelfManagedKafka', bootstrapServers: source.bootstrapServers, records: grouped };
}

export function toEventRecord(record: KafkaRecord): SelfManagedKafkaRecord {
  const out = {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    timestampType: record.timestampType,
    key: record.key === null ? null : record.key.toString('base64'),
    value: record.value === null ? null : record.value.toString('base64'),
    headers: record.headers.map(([name, bytes]) => ({ [name]: bytes === null ? [] : [...bytes] })),
    // With a schema registry, as AWS adds them: only for the attributes it decoded.
    ...(record.keySchemaMetadata ? { keySchemaMetadata: record.keySchemaMetadata } : {}),
    ...(record.valueSchemaMetadata ? { valueSchemaMetadata: record.valueSchemaMetadata } : {}),
    // Queue mode: how many times the share group has handed this record out (Sluice's addition).
    ...(record.deliveryCount !== undefined ? { deliveryCount: record.deliveryCount } : {}),
  };
  // @types/aws-lambda types key/value as string; AWS sends null for a null key or a tombstone.
  return out as SelfManagedKafkaRecord;
}
