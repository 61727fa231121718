/**
 * Sluice's patch of kafkajs (infra/patches/kafkajs.mjs), through kafkajs's own record batch
 * encoder and decoder. On an unpatched kafkajs the first test gets Object.prototype's members
 * for the header values (and toKafkaRecord had thrown on them), the second spends seconds in
 * the header spread, the third throws out of the fetch.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MARKER, unpatched } from '../../infra/patches/kafkajs.mjs';
import './codecs/index.ts';
import { PATCH_MARKER, PATCHED_FILES } from './kafkajs-patch.ts';
import { toKafkaRecord } from './records.ts';

const require = createRequire(import.meta.url);
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as { RecordBatch: (o: object) => Promise<{ buffer: Buffer }> };
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (o: object) => unknown;
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (d: unknown) => Promise<{ records: Array<Record<string, unknown>> }>;
const Decoder = require('kafkajs/src/protocol/decoder') as new (b: Buffer) => unknown;
const Long = require('kafkajs/src/utils/long') as { fromInt(n: number): unknown };

/** One batch of `records` (each a headers object) at offsets 100.., through kafkajs's encoder and decoder. */
async function roundTrip(headers: Array<Record<string, Buffer | Buffer[]>>, compression = 0, corrupt = false) {
  const records = headers.map((h, i) => Record({ offsetDelta: i, key: null, value: Buffer.from(`v${i}`), headers: h }));
  const { buffer } = await RecordBatch({ compression, firstOffset: Long.fromInt(100), lastOffsetDelta: records.length - 1, records });
  if (corrupt) buffer.fill(0xff, 61 + 12); // the compressed records after their format's header (the batch header is 61 bytes)
  return (await decodeBatch(new Decoder(buffer))).records;
}

describe("Sluice's patch of kafkajs", () => {
  it('is applied here, with the marker and files the start-up check looks for', () => {
    expect(unpatched()).toEqual([]);
    expect(MARKER).toBe(PATCH_MARKER);
    expect(PATCHED_FILES).toEqual(['src/protocol/recordBatch/record/v0/decoder.js', 'src/protocol/recordBatch/v0/decoder.js', 'src/consumer/runner.js', 'src/consumer/fetchManager.js']);
  });

  it("reads headers named after Object.prototype's members as ordinary headers, repeats in order", async () => {
    const h: Record<string, Buffer | Buffer[]> = JSON.parse('{"__proto__": 1}');
    h['__proto__'] = Buffer.from('p');
    Object.assign(h, { constructor: Buffer.from('c'), toString: Buffer.from('t'), hasOwnProperty: [Buffer.from('h1'), Buffer.from('h2')] });
    const [message] = await roundTrip([h]);
    const record = toKafkaRecord('t', 0, message as never);
    expect(record.unreadable).toBeUndefined();
    expect(record.headers.map(([n, v]) => `${n}=${v}`).sort()).toEqual(['__proto__=p', 'constructor=c', 'hasOwnProperty=h1', 'hasOwnProperty=h2', 'toString=t']);
  });

  it('reads 50,000 headers in linear time (kafkajs spread the object once per header)', async () => {
    const h = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`h${i}`, Buffer.from('x')]));
    const started = performance.now();
    const [message] = await roundTrip([h]);
    console.log(`[kafkajs patch] 50,000 headers decoded in ${(performance.now() - started).toFixed(0)} ms`);
    expect(Object.keys((message as { headers: object }).headers)).toHaveLength(50_000);
    expect(toKafkaRecord('t', 0, message as never).unreadable).toMatchObject({ reason: 'HeadersOverLimit' });
  });

  it('turns a batch that cannot be decompressed into one placeholder at its last offset', async () => {
    const [GZIP, ZSTD] = [1, 4];
    for (const compression of [GZIP, ZSTD]) {
      const messages = await roundTrip([{}, {}, {}], compression, true);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ offset: '102', unreadable: { firstOffset: '100' } });
      const record = toKafkaRecord('t', 3, messages[0] as never);
      expect(record).toMatchObject({ offset: 102, key: null, value: null, unreadable: { reason: 'BatchUnreadable' } });
      expect(record.unreadable!.error).toMatch(/offsets 100-102/);
    }
    // Undamaged, the same batch reads as its three records.
    expect((await roundTrip([{}, {}, {}], ZSTD)).map((m) => m['offset'])).toEqual(['100', '101', '102']);
  });
});
