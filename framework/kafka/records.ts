import type { KafkaMessage } from 'kafkajs';
import type { KafkaRecord } from '../event/record.ts';

/** kafkajs keeps the record batch's attributes on each message; its typings omit them. */
type MessageWithBatchContext = KafkaMessage & { batchContext?: { timestampType?: number } };

const LOG_APPEND_TIME = 1;

export function toKafkaRecord(topic: string, partition: number, message: KafkaMessage): KafkaRecord {
  const headers: KafkaRecord['headers'] = [];
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    // kafkajs folds repeated header names into an array; unfold them to one entry each.
    for (const v of Array.isArray(value) ? value : [value]) {
      headers.push([name, v === undefined || v === null ? null : Buffer.isBuffer(v) ? v : Buffer.from(v)]);
    }
  }
  const timestampType = (message as MessageWithBatchContext).batchContext?.timestampType;
  return {
    topic,
    partition,
    offset: Number(message.offset),
    timestamp: Number(message.timestamp),
    timestampType: timestampType === LOG_APPEND_TIME ? 'LOG_APPEND_TIME' : 'CREATE_TIME',
    key: message.key ?? null,
    value: message.value ?? null,
    headers,
  };
}
