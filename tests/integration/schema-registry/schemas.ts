/** The schemas and records of the schema-registry tests, as a producer with Confluent's serializers writes them. */
import type { RegistryRecord } from '../../support/registry-producer.ts';

export const ORDER_AVRO = JSON.stringify({
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'category', type: 'string' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID'] } },
  ],
});

export const ORDER_KEY_AVRO = JSON.stringify({ type: 'record', name: 'OrderKey', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] });

export const CUSTOMER_PROTO = `syntax = "proto3";
package shop;

message Address {
  string city = 1;
}

message Customer {
  string name = 1;
  int64 loyalty_points = 2;
  Address address = 3;
  enum Tier {
    BASIC = 0;
    GOLD = 1;
  }
  Tier tier = 4;
  message Note {
    string text = 1;
  }
  Note note = 5;
}
`;

export const REVIEW_JSON_SCHEMA = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Review',
  type: 'object',
  properties: { stars: { type: 'integer' }, text: { type: 'string' } },
  required: ['stars'],
});

export const order = (i: number) => ({ id: 1_000 + i, category: i % 3 === 0 ? 'books' : 'games', note: i % 2 === 0 ? null : `note ${i}`, tags: [`t${i}`], status: i % 2 === 0 ? 'NEW' : 'PAID' });

export const avroRecords = (n: number): RegistryRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    key: { format: 'avro', schema: ORDER_KEY_AVRO, data: { id: 1_000 + i } },
    value: { format: 'avro', schema: ORDER_AVRO, data: order(i) },
  }));

/** Customers (message index [1]) and, every third record, a nested Customer.Note ([1, 0]). */
export const protobufRecords = (n: number): RegistryRecord[] =>
  Array.from({ length: n }, (_, i) =>
    i % 3 === 2
      ? { value: { format: 'protobuf', schema: CUSTOMER_PROTO, message: 'Customer.Note', data: { text: `note ${i}` } } }
      : {
          value: {
            format: 'protobuf', schema: CUSTOMER_PROTO, message: 'Customer',
            data: { name: `customer ${i}`, loyaltyPoints: String(2n ** 53n + BigInt(i)), address: { city: 'Paris' }, tier: 'GOLD', note: { text: 'vip' } },
          },
        },
  );

export const jsonRecords = (n: number): RegistryRecord[] =>
  Array.from({ length: n }, (_, i) => ({ value: { format: 'json', schema: REVIEW_JSON_SCHEMA, data: { stars: 1 + (i % 5), text: `review ${i} — très bien` } } }));
