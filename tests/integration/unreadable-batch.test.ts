/**
 * A compressed record batch that would inflate past maxDecompressedBytes, between two ordinary
 * records of its partition, one partition per codec: the record before it is invoked, the batch
 * goes to the destination as one BatchUnreadable record at its last offset naming its offsets, the
 * record after it is invoked, and the partition commits to its end. On kafkajs Sluice's codecs
 * refuse the batch; on librdkafka (the engines tier) Sluice's patch stops librdkafka inflating it
 * (gzip and LZ4 had no bound at all there) and hands the batch over with its partition, which the
 * binding used to drop, so librdkafka fetched the batch again for ever. And a batch just under the
 * bound, of a size its frames do not declare (Sluice's own LZ4 and zstd codecs write none), is
 * invoked whole: librdkafka grows its buffer by guesses, and its last guess must be the bound itself
 * (the first version of the patch refused LZ4 from about 19 MB and zstd from about 11 MB).
 */
import { randomBytes } from 'node:crypto';
import kafkajs from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { INPUT_BOUNDS } from '../../framework/config/input-bounds.ts';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import '../../framework/kafka/codecs/index.ts';
import { engineUnderTest, failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { deleteTopic, kafka, offsets, readTopic, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

const { CompressionTypes } = kafkajs;
const CODECS = [['gzip', CompressionTypes.GZIP], ['lz4', CompressionTypes.LZ4], ['zstd', CompressionTypes.ZSTD]] as const;
const ALL_CODECS = [...CODECS, ['snappy', CompressionTypes.Snappy]] as const;
/** Four records of zeros, together twice the bound: a few KB on the wire. */
const BOMB_RECORDS = 4;
const bombValue = () => Buffer.alloc(INPUT_BOUNDS.maxDecompressedBytes / 2);

describe('a record batch that inflates past the bound', () => {
  const topics: string[] = [];
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    for (const t of topics) await deleteTopic(t);
  });

  it('goes to the destination as one BatchUnreadable record; the records either side of it are invoked', async () => {
    const topic = uniqueName('unreadable');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: CODECS.length, config: { 'max.message.bytes': String(8 * 1024 * 1024) } }, { topic: failed, partitions: 1 }]));
    const producer = kafka().producer();
    await producer.connect();
    try {
      for (const [partition, [, compression]] of CODECS.entries()) {
        await producer.send({ topic, acks: -1, messages: [{ partition, value: 'before' }] });
        await producer.send({ topic, acks: -1, compression, messages: Array.from({ length: BOMB_RECORDS }, () => ({ partition, value: bombValue() })) });
        await producer.send({ topic, acks: -1, messages: [{ partition, value: 'after' }] });
      }
    } finally {
      await producer.disconnect();
    }
    const end = BOMB_RECORDS + 2;
    h = await startRecorder({ topic, batchSize: 10, failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    await waitFor('every partition committed to its end', async () => (await offsets(h!.trigger.consumerGroupId, topic)).every((p) => p.committed === end), 60_000);

    const invoked = h.seen().flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}:${Buffer.from(r.value, 'base64').toString()}`).sort();
    expect(invoked).toEqual(CODECS.flatMap((_, p) => [`${p}:0:before`, `${p}:${end - 1}:after`]).sort());
    const dead = await readTopic(failed, CODECS.length);
    const copies = dead.map((d) => ({
      partition: Number(String(d.headers[FAILURE_HEADERS.partition])),
      offset: String(d.headers[FAILURE_HEADERS.offset]),
      reason: String(d.headers[FAILURE_HEADERS.reason]),
      error: String(d.headers[FAILURE_HEADERS.error]),
    })).sort((a, b) => a.partition - b.partition);
    console.log(`[unreadable] ${copies.map((c) => `${CODECS[c.partition]![0]}: ${c.error}`).join('\n')}`);
    expect(copies.map(({ partition, offset, reason }) => ({ partition, offset, reason }))).toEqual(CODECS.map((_, p) => ({ partition: p, offset: String(BOMB_RECORDS), reason: 'BatchUnreadable' })));
    for (const c of copies) expect(c.error).toContain(`its record batch (offsets 1-${BOMB_RECORDS})`);
  });
  it('a batch just under the bound, of a size its frames do not declare, is invoked whole in every codec', async () => {
    const topic = uniqueName('under-bound');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: ALL_CODECS.length }, { topic: failed, partitions: 1 }]));
    // 300 JSON records of 100 kB: 30 MB, under maxDecompressedBytes (33.5 MB) and past every size librdkafka guesses first.
    const count = 300;
    const value = (i: number) => `{"i":${String(i).padStart(6, '0')},"pad":"${'x'.repeat(100_000 - 30)}"}`;
    const producer = kafka().producer();
    await producer.connect();
    try {
      for (const [partition, [, compression]] of ALL_CODECS.entries()) {
        await producer.send({ topic, acks: -1, compression, messages: Array.from({ length: count }, (_, i) => ({ partition, value: value(i) })) });
      }
    } finally {
      await producer.disconnect();
    }
    const under = await startRecorder({ topic, batchSize: 10, failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    try {
      await waitFor('every partition committed to its end', async () => (await offsets(under.trigger.consumerGroupId, topic)).every((p) => p.committed === count), 90_000);
      const invoked = under.seen().flatMap(recordsOf);
      expect(ALL_CODECS.map(([codec], p) => [codec, new Set(invoked.filter((r) => r.partition === p).map((r) => r.offset)).size])).toEqual(ALL_CODECS.map(([codec]) => [codec, count]));
      expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(0);
    } finally {
      await under.stop();
    }
  });
  // Found by review: with no size in its frame, librdkafka's first zstd guess (twice the input) was
  // past the bound for any batch over 16 MB on the wire, and nothing was tried at all.
  it('a zstd batch of 20 MB of values that do not compress is invoked whole', async () => {
    const { topic, failed } = await topicPair('incompressible', 64 * 1024 * 1024);
    const count = 200;
    await sendBatch(topic, CompressionTypes.ZSTD, Array.from({ length: count }, () => randomBytes(100_000)));
    const h2 = await startRecorder({ topic, batchSize: 10, failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    try {
      await waitFor('committed to its end', async () => (await offsets(h2.trigger.consumerGroupId, topic)).every((p) => p.committed === count), 90_000);
      expect(new Set(h2.seen().flatMap(recordsOf).map((r) => r.offset)).size).toBe(count);
      expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(0);
    } finally {
      await h2.stop();
    }
  });

  // Found by review: a batch past receive.message.max.bytes on the wire (the first version of the
  // patch lowered it to the bound) made librdkafka drop the connection and fetch again for ever.
  it('an uncompressed 40 MB record goes to the destination; the records either side of it are invoked', async () => {
    const { topic, failed } = await topicPair('plain-large', 64 * 1024 * 1024);
    await sendBatch(topic, CompressionTypes.None, [Buffer.from('before'), Buffer.alloc(40_000_000, 120), Buffer.from('after')]);
    const h2 = await startRecorder({ topic, batchSize: 10, failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    try {
      await waitFor('committed to its end', async () => (await offsets(h2.trigger.consumerGroupId, topic)).every((p) => p.committed === 3), 90_000);
      expect(h2.seen().flatMap(recordsOf).map((r) => `${r.offset}:${Buffer.from(r.value, 'base64').toString()}`)).toEqual(['0:before', '2:after']);
      const [copy] = await readTopic(failed, 1);
      // kafkajs hands the record over whole and Lambda's payload refuses it; the patched binding does not copy it.
      expect([String(copy!.headers[FAILURE_HEADERS.offset]), String(copy!.headers[FAILURE_HEADERS.reason])]).toEqual(['1', engineUnderTest().engine === 'librdkafka' ? 'BatchUnreadable' : 'PayloadTooLarge']);
    } finally {
      await h2.stop();
    }
  });

  async function topicPair(prefix: string, maxMessageBytes: number): Promise<{ topic: string; failed: string }> {
    const topic = uniqueName(prefix);
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: 1, config: { 'max.message.bytes': String(maxMessageBytes) } }, { topic: failed, partitions: 1 }]));
    return { topic, failed };
  }

  async function sendBatch(topic: string, compression: number, values: Buffer[]): Promise<void> {
    const producer = kafka().producer();
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, compression, messages: values.map((value) => ({ value })) });
    } finally {
      await producer.disconnect();
    }
  }
});
