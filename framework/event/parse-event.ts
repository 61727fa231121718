/**
 * Pure: an AWS Kafka event (self-managed or MSK, as buildEvent writes it and as `generate-event`
 * prints it) back to the records it holds, for `invoke --event`. A shape that is not such an
 * event is refused with the path of what is wrong.
 */
import type { EventSource } from './build-event.ts';
import type { KafkaRecord } from './record.ts';
import { UsageError } from '../errors.ts';

export function recordsOfEvent(event: unknown): { records: KafkaRecord[]; source: EventSource } {
  const e = event as { eventSource?: unknown; eventSourceArn?: unknown; bootstrapServers?: unknown; records?: unknown };
  if (!e || typeof e !== 'object' || !e.records || typeof e.records !== 'object') {
    throw new UsageError('The event has no "records" object: give an AWS Kafka event ({"eventSource": "SelfManagedKafka", "records": {"topic-0": [ … ]}}), e.g. from `generate-event`.');
  }
  const records: KafkaRecord[] = [];
  for (const [group, list] of Object.entries(e.records as Record<string, unknown>)) {
    if (!Array.isArray(list)) throw new UsageError(`records["${group}"] must be a list of records.`);
    list.forEach((r: Record<string, unknown>, i) => {
      const at = `records["${group}"][${i}]`;
      if (typeof r?.topic !== 'string' || !Number.isInteger(r.partition) || !Number.isInteger(r.offset)) throw new UsageError(`${at} needs "topic" (text), "partition" and "offset" (whole numbers).`);
      const bytes = (name: 'key' | 'value'): Buffer | null => {
        const v = r[name];
        if (v === null || v === undefined) return null;
        if (typeof v !== 'string') throw new UsageError(`${at}.${name} must be base64 text or null.`);
        return Buffer.from(v, 'base64');
      };
      const headers = (Array.isArray(r.headers) ? r.headers : []).flatMap((h: Record<string, unknown>) =>
        Object.entries(h).map(([name, v]): [string, Buffer] => {
          if (!Array.isArray(v)) throw new UsageError(`${at}.headers: the header "${name}" must be a list of byte values, as AWS sends it.`);
          return [name, Buffer.from(v as number[])];
        }),
      );
      records.push({
        topic: r.topic, partition: r.partition as number, offset: r.offset as number,
        timestamp: typeof r.timestamp === 'number' ? r.timestamp : Date.now(),
        timestampType: r.timestampType === 'LOG_APPEND_TIME' ? 'LOG_APPEND_TIME' : 'CREATE_TIME',
        key: bytes('key'), value: bytes('value'), headers,
        // A queue-mode event replayed: the handler sees the delivery count it saw.
        ...(Number.isSafeInteger(r.deliveryCount) && (r.deliveryCount as number) > 0 ? { deliveryCount: r.deliveryCount as number } : {}),
      });
    });
  }
  if (records.length === 0) throw new UsageError('The event holds no record.');
  const source: EventSource = {
    bootstrapServers: typeof e.bootstrapServers === 'string' ? e.bootstrapServers : 'localhost:9092',
    ...(typeof e.eventSourceArn === 'string' ? { eventSourceArn: e.eventSourceArn } : {}),
  };
  return { records, source };
}
