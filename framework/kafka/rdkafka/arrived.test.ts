import type { Message } from '@confluentinc/kafka-javascript';
import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../../event/record.ts';
import { arrived, bufferCost, letGoRecord, MESSAGE_OVERHEAD_BYTES } from './arrived.ts';

const message = (value: Buffer | null, key?: Buffer | string): Message => ({ topic: 't', partition: 0, offset: 9, value, size: value?.length ?? 0, ...(key !== undefined ? { key } : {}), headers: [{ a: Buffer.from('b') }] }) as Message;
const base = { topic: 't', partition: 0, offset: 9, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [] } as KafkaRecord;

describe('a librdkafka message as it arrives', () => {
  it('is kept as it is within the bound, key and value counted together', () => {
    const m = message(Buffer.alloc(60), 'k'.repeat(40));
    expect(arrived(m, 100)).toBe(m);
    expect(letGoRecord(base, arrived(m, 100), 100)).toBeUndefined();
  });

  it('past the bound, loses its bytes at once and becomes BatchUnreadable, naming its size and the bound', () => {
    const m = arrived(message(Buffer.alloc(80), Buffer.alloc(30)), 100);
    expect([m.value, m.key, m.headers, m.offset]).toEqual([null, undefined, undefined, 9]);
    const record = letGoRecord(base, m, 100);
    expect(record?.unreadable?.reason).toBe('BatchUnreadable');
    expect(record?.unreadable?.error).toContain('maxDecompressedBytes (100 bytes): this record alone is 110 bytes');
    expect(record?.value).toBeNull();
  });

  it('costs the read-ahead its payload and an overhead, so empty records fill it too', () => {
    expect(bufferCost(message(null))).toBe(MESSAGE_OVERHEAD_BYTES);
    expect(bufferCost(message(Buffer.alloc(1000)))).toBe(1000 + MESSAGE_OVERHEAD_BYTES);
  });
});
