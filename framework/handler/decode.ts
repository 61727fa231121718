/**
 * A middy middleware for Kafka events, Sluice's or AWS's (they are the same bytes): adds
 * `record.decoded = { key, value, headers }` to every record, with the key and header values
 * as UTF-8 strings and the value parsed as JSON (null stays null). The original fields are
 * left as they are. A value that is not JSON fails the invocation naming the record.
 */
import type { MiddlewareObj } from '@middy/core';
import type { SelfManagedKafkaEvent, SelfManagedKafkaRecord } from 'aws-lambda';

export interface Decoded<T> {
  key: string | null;
  value: T | null;
  headers: Record<string, string>;
}

export type DecodedRecord<T> = SelfManagedKafkaRecord & { decoded: Decoded<T> };
export type DecodedKafkaEvent<T> = Omit<SelfManagedKafkaEvent, 'records'> & { records: Record<string, Array<DecodedRecord<T>>> };

export function decodeRecord<T>(record: SelfManagedKafkaRecord): Decoded<T> {
  const key = record.key as string | null;
  const value = record.value as string | null;
  let parsed: T | null = null;
  if (value !== null) {
    try {
      parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;
    } catch (e) {
      throw new Error(`record ${record.topic}-${record.partition}@${record.offset}: value is not JSON (${(e as Error).message})`);
    }
  }
  const headers: Record<string, string> = {};
  for (const header of record.headers) for (const [name, bytes] of Object.entries(header)) headers[name] = Buffer.from(bytes).toString('utf8');
  return { key: key === null ? null : Buffer.from(key, 'base64').toString('utf8'), value: parsed, headers };
}

export function kafkaJsonDecoder<T = unknown>(): MiddlewareObj<DecodedKafkaEvent<T>> {
  return {
    before: (request) => {
      for (const records of Object.values(request.event.records)) {
        for (const record of records) record.decoded = decodeRecord<T>(record);
      }
    },
  };
}
