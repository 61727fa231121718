/**
 * A middy middleware for Kafka events (Sluice's or AWS's, they are the same bytes): decodes
 * each record's base64 value as JSON into `record.decoded`, leaving the original fields as
 * they are. A value that is not JSON fails the invocation with the record's coordinates.
 */
import type { MiddlewareObj } from '@middy/core';
import type { SelfManagedKafkaEvent, SelfManagedKafkaRecord } from 'aws-lambda';

export type DecodedRecord<T> = SelfManagedKafkaRecord & { decoded: T | null };
export type DecodedKafkaEvent<T> = Omit<SelfManagedKafkaEvent, 'records'> & { records: Record<string, Array<DecodedRecord<T>>> };

export function jsonValues<T = unknown>(): MiddlewareObj<DecodedKafkaEvent<T>> {
  return {
    before: (request) => {
      for (const records of Object.values(request.event.records)) {
        for (const record of records) {
          const value = record.value as string | null;
          if (value === null) {
            record.decoded = null;
            continue;
          }
          try {
            record.decoded = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;
          } catch (e) {
            throw new Error(`record ${record.topic}-${record.partition}@${record.offset}: value is not JSON (${(e as Error).message})`);
          }
        }
      }
    },
  };
}
