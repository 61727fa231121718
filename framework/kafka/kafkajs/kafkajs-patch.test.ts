/**
 * Sluice's patch of kafkajs (infra/patches/kafkajs.mjs), through kafkajs's own record batch
 * encoder and decoder. On an unpatched kafkajs the first test gets Object.prototype's members
 * for the header values (and toKafkaRecord had thrown on them), the second spends seconds in
 * the header spread, the third throws out of the fetch (with sluice-patch v1, an uncompressed
 * batch still did), and a producer's send of many records spends minutes grouping them.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MARKERS, unpatched } from '../../../infra/patches/kafkajs.mjs';
import '../codecs/index.ts';
import { PATCH_MARKERS } from './kafkajs-patch.ts';
import { toKafkaRecord } from './records.ts';

const require = createRequire(import.meta.url);
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as { RecordBatch: (o: object) => Promise<{ buffer: Buffer }> };
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (o: object) => unknown;
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (d: unknown) => Promise<{ records: Array<Record<string, unknown>> }>;
const Decoder = require('kafkajs/src/protocol/decoder') as new (b: Buffer) => unknown;
const Long = require('kafkajs/src/utils/long') as { fromInt(n: number): unknown };
const decodeMessages = require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages') as (d: unknown) => Promise<Array<Record<string, unknown>>>;
const BOUNDS = Symbol.for('sluice.inputBounds');
const groupMessagesPerPartition = require('kafkajs/src/producer/groupMessagesPerPartition') as (o: object) => Record<string, Array<{ n: number }>>;
const KafkajsBatch = require('kafkajs/src/consumer/batch') as new (topic: string, fetchedOffset: string, data: object) => { lastOffset(): string; isEmpty(): boolean };

/** A partition's record set in a fetch response, as decodeMessages reads it: its size, then the batches. */
async function recordSet(batches: Array<{ values: Buffer[]; compression: number; headers?: Record<string, Buffer> }>): Promise<Buffer> {
  const buffers: Buffer[] = [];
  let offset = 0;
  for (const b of batches) {
    const records = b.values.map((value, i) => Record({ offsetDelta: i, key: null, value, headers: b.headers ?? {} }));
    buffers.push((await RecordBatch({ compression: b.compression, firstOffset: Long.fromInt(offset), lastOffsetDelta: records.length - 1, records })).buffer);
    offset += records.length;
  }
  const size = Buffer.alloc(4);
  size.writeInt32BE(buffers.reduce((n, b) => n + b.length, 0));
  return Buffer.concat([size, ...buffers]);
}

/** Runs `fn` with Sluice's bounds changed as `patch` says (the patched decoders read them on each call). */
async function withBounds<T>(patch: Record<string, number>, fn: () => Promise<T>): Promise<T> {
  const g = globalThis as unknown as Record<symbol, Record<string, number>>;
  const saved = g[BOUNDS]!;
  g[BOUNDS] = { ...saved, ...patch };
  try {
    return await fn();
  } finally {
    g[BOUNDS] = saved;
  }
}

/** One batch of `records` (each a headers object) at offsets 100.., through kafkajs's encoder and decoder. */
async function roundTrip(headers: Array<Record<string, Buffer | Buffer[]>>, compression = 0, corrupt = false) {
  const records = headers.map((h, i) => Record({ offsetDelta: i, key: null, value: Buffer.from(`v${i}`), headers: h }));
  const { buffer } = await RecordBatch({ compression, firstOffset: Long.fromInt(100), lastOffsetDelta: records.length - 1, records });
  // The batch header is 61 bytes; then the records: compressed, after their format's own header; uncompressed, after their count.
  if (corrupt) buffer.fill(0xff, 61 + (compression ? 12 : 4));
  return (await decodeBatch(new Decoder(buffer))).records;
}

describe("Sluice's patch of kafkajs", () => {
  it('is applied here, with the marker and files the start-up check looks for', () => {
    expect(unpatched()).toEqual([]);
    expect(MARKERS).toEqual(PATCH_MARKERS);
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

  it('builds headers within the bounds, and counts those past them without building one (kafkajs spread the object once per header)', async () => {
    const headers = (n: number, bytes = 1) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i}`, Buffer.alloc(bytes, 0x78)]));
    const [within] = await roundTrip([headers(1_000)]);
    expect(Object.keys((within as { headers: object }).headers)).toHaveLength(1_000);
    expect(toKafkaRecord('t', 0, within as never).headers).toHaveLength(1_000);

    const [many, large] = await roundTrip([headers(50_000), headers(2, 200 * 1024)]);
    expect(many).toMatchObject({ headersOverBound: { count: 50_000 } });
    expect(Object.keys((many as { headers: object }).headers)).toEqual([]);
    expect(toKafkaRecord('t', 0, many as never).unreadable).toEqual({ reason: 'HeadersOverLimit', error: 'it has 50000 headers, more than 1000 (the bound maxHeaders)' });
    expect(Object.keys((large as { headers: object }).headers)).toEqual([]);
    expect(toKafkaRecord('t', 0, large as never).unreadable).toMatchObject({ reason: 'HeadersOverLimit', error: expect.stringMatching(/more than 262144 \(the bound maxHeaderBytes\)/) });
  });

  it('hands over a batch of 130,000 records, which kafkajs\'s spread threw out of the fetch (RangeError)', async () => {
    const GZIP = 1;
    const set = await recordSet([{ values: Array.from({ length: 130_000 }, () => Buffer.alloc(0)), compression: GZIP }]);
    const messages = await decodeMessages(new Decoder(set));
    expect(messages).toHaveLength(130_000);
    expect(messages.at(-1)).toMatchObject({ offset: '129999' });
  });

  it('decodes a response\'s batches only while its budget lasts: the rest stays in the log, fetched again from the first left out', async () => {
    const ZSTD = 4;
    const mib = (n: number) => Buffer.alloc(n * 1024 * 1024);
    // Each batch: one record of 3 MiB of zeros (a few hundred bytes compressed); 8 MiB per batch, 10 MiB per response.
    const set = await recordSet(Array.from({ length: 6 }, () => ({ values: [mib(3)], compression: ZSTD })));
    const response = new Decoder(Buffer.concat([set, set]));
    await withBounds({ maxDecompressedBytes: 8 * 1024 * 1024, maxFetchDecompressedBytes: 10 * 1024 * 1024 }, async () => {
      // The first partition: two batches fit its 8 MiB (and 6 MiB of the response's 10); the third does not.
      expect((await decodeMessages(response)).map((m) => m['offset'])).toEqual(['0', '1']);
      // The second partition: its first batch may take a whole batch's bound while the response has any left; then none is left.
      expect((await decodeMessages(response)).map((m) => m['offset'])).toEqual(['0']);
    });
    // A batch that alone passes a batch's bound is unreadable (a placeholder the failure policy sends aside), not refetched for ever.
    const unreadable = await withBounds({ maxDecompressedBytes: 2 * 1024 * 1024 }, () => decodeMessages(new Decoder(set)));
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]).toMatchObject({ offset: '0', unreadable: { firstOffset: '0' } });
  });

  it('gives every partition\'s first batch a batch\'s bound whatever the response has left: the last partitions asked for are not starved', async () => {
    const ZSTD = 4;
    const set = await recordSet(Array.from({ length: 3 }, () => ({ values: [Buffer.alloc(3 * 1024 * 1024)], compression: ZSTD })));
    const response = new Decoder(Buffer.concat([set, set, set]));
    await withBounds({ maxDecompressedBytes: 8 * 1024 * 1024, maxFetchDecompressedBytes: 7 * 1024 * 1024 }, async () => {
      expect((await decodeMessages(response)).map((m) => m['offset'])).toEqual(['0', '1']); // 6 of the response's 7 MiB: the third batch does not fit
      expect((await decodeMessages(response)).map((m) => m['offset'])).toEqual(['0']);
      expect((await decodeMessages(response)).map((m) => m['offset'])).toEqual(['0']);
    });
  });

  it('charges headers as the records are built: a batch of many records of many small headers stops at its bound', async () => {
    const GZIP = 1;
    const headers = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [String(i), Buffer.alloc(0)]));
    const many = await recordSet([{ values: Array.from({ length: 40 }, () => Buffer.from('v')), compression: GZIP, headers }]);
    const few = await recordSet([{ values: Array.from({ length: 4 }, () => Buffer.from('v')), compression: GZIP, headers }]);
    await withBounds({ maxDecompressedBytes: 1024 * 1024, headerCost: 110 }, async () => {
      // 40 records of 1,000 headers: 4.4 MB of header cost, within maxHeaders each, past the batch's 1 MiB.
      const [placeholder, ...rest] = await decodeMessages(new Decoder(many));
      expect(rest).toEqual([]);
      expect(placeholder).toMatchObject({ offset: '39', unreadable: { error: expect.stringMatching(/headers cost more than/) } });
      expect(await decodeMessages(new Decoder(few))).toHaveLength(4);
    });
  });

  it('moves a fetch past a compacted batch to the batch\'s last offset, not one offset at a time', async () => {
    const GZIP = 1;
    // What the log cleaner leaves of a 10,000-record batch: its first record, its last offset kept.
    const { buffer } = await RecordBatch({ compression: GZIP, firstOffset: Long.fromInt(0), lastOffsetDelta: 9_999, records: [Record({ offsetDelta: 0, key: null, value: Buffer.from('v'), headers: {} })] });
    const size = Buffer.alloc(4);
    size.writeInt32BE(buffer.length);
    const messages = await decodeMessages(new Decoder(Buffer.concat([size, buffer])));
    // Offset 0 was consumed; a fetch from 1 gets the same batch back, and nothing of it is at or past 1.
    const batch = new KafkajsBatch('t', '1', { partition: 0, highWatermark: '10001', messages, abortedTransactions: [] });
    expect(batch.isEmpty()).toBe(true);
    expect(batch.lastOffset()).toBe('9999');
    expect(new KafkajsBatch('t', '20000', { partition: 0, highWatermark: '20001', messages, abortedTransactions: [] }).lastOffset()).toBe('20000');
  });

  it('refuses a batch by its declared record count before decompressing it', async () => {
    const GZIP = 1;
    const set = await recordSet([{ values: Array.from({ length: 2_000 }, () => Buffer.alloc(0)), compression: GZIP }]);
    const [placeholder, ...rest] = await withBounds({ maxDecompressedBytes: 64 * 1_000, recordCost: 64 }, () => decodeMessages(new Decoder(set)));
    expect(rest).toEqual([]);
    expect(placeholder).toMatchObject({ offset: '1999', unreadable: { error: 'it declares 2000 records, more than the fetch\'s bound leaves room for (1000)' } });
  });

  it("groups a producer send's 120,000 messages by partition, each partition's in order (kafkajs copied the list per message: minutes)", () => {
    const messages = Array.from({ length: 120_000 }, (_, n) => ({ n, partition: n % 3 }));
    const grouped = groupMessagesPerPartition({ topic: 't', partitionMetadata: [{ partitionId: 0 }, { partitionId: 1 }, { partitionId: 2 }], messages, partitioner: ({ message }: { message: { partition: number } }) => message.partition });
    expect(Object.keys(grouped).sort()).toEqual(['0', '1', '2']);
    for (const p of [0, 1, 2]) {
      const ns = grouped[p]!.map((m) => m.n);
      expect(ns).toHaveLength(40_000);
      expect(ns.every((n, i) => n === p + 3 * i)).toBe(true);
    }
  });

  it('turns a batch that cannot be decompressed or read into one placeholder at its last offset', async () => {
    const [GZIP, ZSTD] = [1, 4];
    for (const compression of [GZIP, ZSTD]) {
      const messages = await roundTrip([{}, {}, {}], compression, true);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ offset: '102', unreadable: { firstOffset: '100' } });
      const record = toKafkaRecord('t', 3, messages[0] as never);
      expect(record).toMatchObject({ offset: 102, key: null, value: null, unreadable: { reason: 'BatchUnreadable' } });
      expect(record.unreadable!.error).toMatch(/offsets 100-102/);
    }
    // Uncompressed records that cannot be read (kafkajs's readArray ran past the buffer) too.
    const [unreadable, ...more] = await roundTrip([{}, {}, {}], 0, true);
    expect(more).toEqual([]);
    expect(unreadable).toMatchObject({ offset: '102', unreadable: { firstOffset: '100', error: expect.stringMatching(/outside buffer bounds/) } });
    // Undamaged, the same batch reads as its three records.
    for (const compression of [0, ZSTD]) expect((await roundTrip([{}, {}, {}], compression)).map((m) => m['offset'])).toEqual(['100', '101', '102']);
  });
});
