import { describe, expect, it } from 'vitest';
import { asReceived, type KafkaRecord } from './record.ts';

const read: KafkaRecord = {
  topic: 'orders', partition: 2, offset: 40, timestamp: 1_700_000_000_000, timestampType: 'LOG_APPEND_TIME',
  key: Buffer.from([0, 0, 0, 0, 8, 2]), value: Buffer.from([0, 0, 0, 0, 7, 4, 1]), headers: [['h', null]],
};

describe('asReceived', () => {
  it('gives back a record no registry changed as it is', () => {
    expect(asReceived(read)).toBe(read);
  });

  it('gives back the key and value as read, without the schema metadata or the filter text', () => {
    const decoded: KafkaRecord = {
      ...read,
      key: Buffer.from('{"k":1}'),
      value: Buffer.from('{"v":2}'),
      keySchemaMetadata: { dataFormat: 'AVRO', schemaId: '8' },
      valueSchemaMetadata: { dataFormat: 'AVRO', schemaId: '7' },
      received: { key: read.key, value: read.value },
      filterValue: Buffer.from('{"v":2}'),
    };
    expect(asReceived(decoded)).toEqual(read);
    expect(Object.keys(asReceived(decoded)).sort()).toEqual(Object.keys(read).sort());
  });

  it('keeps a null key or value as read', () => {
    const decoded: KafkaRecord = { ...read, value: Buffer.from('{}'), valueSchemaMetadata: { dataFormat: 'JSON', schemaId: '3' }, received: { key: null, value: read.value } };
    expect(asReceived(decoded)).toEqual({ ...read, key: null });
  });
});
