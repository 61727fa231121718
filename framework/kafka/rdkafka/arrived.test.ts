import type { Message } from '@confluentinc/kafka-javascript';
import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../../event/record.ts';
import { arrived, bufferCost, letGoRecord, MESSAGE_OVERHEAD_BYTES, unreadableBatch } from './arrived.ts';

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

  it("a record the patched binding did not copy (its size instead) becomes BatchUnreadable the same way", () => {
    const m = { topic: 't', partition: 0, offset: 9, value: null, size: 200, key: null, sluiceLetGo: 200 } as unknown as Message;
    expect(arrived(m, 100)).toBe(m);
    expect(unreadableBatch(m)).toBeUndefined();
    expect(letGoRecord(base, m, 100)?.unreadable?.error).toContain('this record alone is 200 bytes');
  });

  it("a batch librdkafka could not read, handed over at its last offset, becomes BatchUnreadable naming its offsets and librdkafka's words", () => {
    const message = 'Decompression (codec 0x1) of message at 4 of 65305 bytes failed: Local: Invalid compressed data';
    const m = { topic: 't', partition: 0, offset: 9, value: null, size: 0, sluiceError: { code: -198, message } } as unknown as Message;
    expect(unreadableBatch(m)).toEqual({ code: -198, message });
    const record = letGoRecord(base, arrived(m, 100), 100);
    expect(record?.unreadable?.reason).toBe('BatchUnreadable');
    expect(record?.unreadable?.error).toContain(`its record batch (offsets 4-9) could not be read: librdkafka: ${message}`);
    expect([record?.offset, record?.value, record?.headers]).toEqual([9, null, []]);
  });

  it('costs the read-ahead its payload and an overhead, so empty records fill it too', () => {
    expect(bufferCost(message(null))).toBe(MESSAGE_OVERHEAD_BYTES);
    expect(bufferCost(message(Buffer.alloc(1000)))).toBe(1000 + MESSAGE_OVERHEAD_BYTES);
  });
});
