import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confluentFrame, FrameError, readFrame, readMessageIndexes, writeMessageIndexes } from './wire.ts';

/** The test's own encoder: an unsigned varint, 7 bits a byte, low bits first. */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
const zigzag = (n: number) => (n >= 0 ? 2 * n : -2 * n - 1);
/** Confluent's message indexes as its serializers write them: a count, then each index, all zigzag varints. */
const indexesBytes = (indexes: number[]) => [indexes.length, ...indexes].flatMap((n) => varint(zigzag(n)));

const uuidBytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');
const glueFrame = (compression: number, uuid: string, payload: number[]) => Buffer.from([3, compression, ...uuidBytes(uuid), ...payload]);

describe('readFrame: Confluent', () => {
  it('reads the big-endian schema id as decimal text and keeps the rest as the payload', () => {
    const frame = readFrame('confluent', Buffer.from([0, 0x01, 0x02, 0x03, 0x04, 0xaa, 0xbb]));
    expect(frame).toEqual({ schemaId: '16909060', payload: Buffer.from([0xaa, 0xbb]), compressed: false });
    expect(readFrame('confluent', Buffer.from([0, 0, 0, 0, 7])).schemaId).toBe('7');
    expect(readFrame('confluent', Buffer.from([0, 0, 0, 0, 7])).payload).toEqual(Buffer.alloc(0));
    expect(readFrame('confluent', Buffer.from([0, 0x7f, 0xff, 0xff, 0xff])).schemaId).toBe('2147483647');
  });

  it('refuses fewer than 5 bytes', () => {
    for (const length of [0, 1, 4]) {
      expect(() => readFrame('confluent', Buffer.alloc(length))).toThrow(FrameError);
      expect(() => readFrame('confluent', Buffer.alloc(length))).toThrow(`${length} bytes are too short for the Confluent wire format`);
    }
  });

  it('refuses a first byte other than the magic byte 0', () => {
    expect(() => readFrame('confluent', Buffer.from('{"id":1}'))).toThrow(FrameError);
    expect(() => readFrame('confluent', Buffer.from([1, 0, 0, 0, 1]))).toThrow("the first byte is 1, not the Confluent wire format's magic byte 0");
  });
});

describe('readFrame: Glue', () => {
  it('formats the 16 header bytes as the schema version UUID', () => {
    const bytes = Buffer.from([3, 0, ...Array.from({ length: 16 }, (_, i) => i), 0x61]);
    expect(readFrame('glue', bytes)).toEqual({ schemaId: '00010203-0405-0607-0809-0a0b0c0d0e0f', payload: Buffer.from('a'), compressed: false });
    const uuid = randomUUID();
    expect(readFrame('glue', glueFrame(0, uuid, [])).schemaId).toBe(uuid);
  });

  it('says the payload is compressed for compression byte 5 only', () => {
    const uuid = randomUUID();
    expect(readFrame('glue', glueFrame(0, uuid, [1, 2])).compressed).toBe(false);
    expect(readFrame('glue', glueFrame(5, uuid, [1, 2]))).toEqual({ schemaId: uuid, payload: Buffer.from([1, 2]), compressed: true });
  });

  it('refuses any other compression byte', () => {
    for (const byte of [1, 4, 6, 255]) {
      expect(() => readFrame('glue', glueFrame(byte, randomUUID(), [1]))).toThrow(`compression byte ${byte} is neither 0 (none) nor 5 (zlib)`);
    }
  });

  it('refuses fewer than the 18 header bytes', () => {
    expect(() => readFrame('glue', Buffer.from([3, 0, 1, 2]))).toThrow('4 bytes are too short for the Glue wire format (an 18-byte header)');
    expect(() => readFrame('glue', glueFrame(0, randomUUID(), []).subarray(0, 17))).toThrow(FrameError);
    expect(readFrame('glue', glueFrame(0, randomUUID(), [])).payload).toEqual(Buffer.alloc(0));
  });

  it('refuses a header version other than 3, such as a Confluent frame', () => {
    expect(() => readFrame('glue', Buffer.from([0, ...Array(20).fill(1)]))).toThrow("the first byte is 0, not the Glue wire format's header version 3");
    expect(() => readFrame('glue', Buffer.from([2, 0, ...Array(16).fill(0)]))).toThrow(FrameError);
  });
});

describe('readMessageIndexes', () => {
  const message = [0x08, 0x96, 0x01];

  it('reads the single byte 0 as [0], the first message', () => {
    expect(readMessageIndexes(Buffer.from([0, ...message]))).toEqual({ indexes: [0], message: Buffer.from(message) });
  });

  it('reads 02 02 as [1] and 04 02 04 as [1, 2]', () => {
    expect(readMessageIndexes(Buffer.from([0x02, 0x02, ...message]))).toEqual({ indexes: [1], message: Buffer.from(message) });
    expect(readMessageIndexes(Buffer.from([0x04, 0x02, 0x04, ...message]))).toEqual({ indexes: [1, 2], message: Buffer.from(message) });
  });

  it('reads an index that takes more than one varint byte', () => {
    // 300 zigzags to 600 = 0b100_1011000: 0xd8 0x04.
    expect(readMessageIndexes(Buffer.from([0x02, 0xd8, 0x04, ...message]))).toEqual({ indexes: [300], message: Buffer.from(message) });
  });

  it('refuses a varint that the payload cuts off', () => {
    expect(() => readMessageIndexes(Buffer.alloc(0))).toThrow('the message indexes end inside a varint');
    expect(() => readMessageIndexes(Buffer.from([0x02, 0xd8]))).toThrow(FrameError);
    expect(() => readMessageIndexes(Buffer.from([0x04, 0x02]))).toThrow('the message indexes end inside a varint');
  });

  it('refuses a varint longer than 5 bytes', () => {
    expect(() => readMessageIndexes(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]))).toThrow('longer than 5 bytes');
  });

  it('refuses a count that the payload cannot hold, or a negative one', () => {
    // Count 10 (zigzag 20) in a 4-byte payload.
    expect(() => readMessageIndexes(Buffer.from([20, 2, 2, 2]))).toThrow('message index count 10 does not fit the 4-byte payload');
    // Zigzag 1 is -1.
    expect(() => readMessageIndexes(Buffer.from([1, 2]))).toThrow('message index count -1 does not fit');
    expect(() => readMessageIndexes(Buffer.from([0x02, 0x01]))).toThrow('message index -1 is negative');
  });

  it('property: indexes written as Confluent serializers write them read back, and the message follows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 8 }),
        fc.uint8Array({ maxLength: 20 }),
        (indexes, body) => {
          const read = readMessageIndexes(Buffer.from([...indexesBytes(indexes), ...body]));
          expect(read.indexes).toEqual(indexes);
          expect(read.message).toEqual(Buffer.from(body));
        },
      ),
    );
  });
});

describe('writing the Confluent frame (produce --subject)', () => {
  it('writes message indexes as Confluent serializers do, [0] as the single byte 0, and reads back what it wrote', () => {
    expect([...writeMessageIndexes([0])]).toEqual([0]);
    expect([...writeMessageIndexes([1, 0])]).toEqual(indexesBytes([1, 0]));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 6 }), (indexes) => {
        const written = writeMessageIndexes(indexes);
        if (!(indexes.length === 1 && indexes[0] === 0)) expect([...written]).toEqual(indexesBytes(indexes));
        expect(readMessageIndexes(Buffer.concat([written, Buffer.from('m')]))).toEqual({ indexes, message: Buffer.from('m') });
      }),
    );
  });

  it('puts magic byte 0 and the id before the payload', () => {
    expect(readFrame('confluent', confluentFrame(70_000, Buffer.from('p')))).toEqual({ schemaId: '70000', payload: Buffer.from('p'), compressed: false });
  });
});

