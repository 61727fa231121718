/**
 * Every record codec Kafka has, written by an independent client (librdkafka): each record
 * reaches the handler once, byte for byte in AWS's shape, and the group commits to the log end.
 * Before the codecs were registered, a snappy, lz4 or zstd batch crashed the consumer for good.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, recentTimestampBase, uniqueName, waitFor } from '../support/kafka.ts';
import { producePython, type Compression, type PythonRecord } from '../support/python-producer.ts';

const PER_PARTITION = 150;
const BASE_TS = recentTimestampBase();

/** Keys and none, tombstones, repeated and binary headers, non-UTF-8 bytes, and values large enough to span snappy's 32 KB blocks. */
function records(partition: number, salt: string): PythonRecord[] {
  return Array.from({ length: PER_PARTITION }, (_, i) => {
    const headers: Array<[string, Buffer]> = [];
    if (i % 3 === 0) headers.push(['trace-id', Buffer.from(`${salt}-${i}`)]);
    if (i % 5 === 0) headers.push(['bin', Buffer.from([0x00, 0xff, i & 0xff])], ['bin', Buffer.from('second')]);
    const value =
      i % 17 === 0 ? null
      : i % 11 === 0 ? Buffer.from(`${salt}:${i}:`.repeat(4000)) // ~40 KB, compressible
      : i % 7 === 0 ? Buffer.from([0xff, 0xfe, 0xfd, i & 0xff, 0x00])
      : Buffer.from(JSON.stringify({ salt, partition, i, text: 'héllo ✓' }));
    return { partition, key: i % 10 === 0 ? null : Buffer.from(`${salt}-key-${i}`), value, headers, timestamp: BASE_TS + i };
  });
}

const b64 = (v: Buffer | null) => (v === null ? null : v.toString('base64'));

/** Produces each partition's records with its codec, then drains the topic through the poller and checks every record. */
async function drain(topic: string, codecOf: Compression[]): Promise<Harness> {
  await createTopic(topic, codecOf.length);
  const produced = codecOf.map((codec, partition) => ({ codec, records: records(partition, `${codec}-${partition}`) }));
  for (const { codec, records: rs } of produced) await producePython(topic, codec, rs);

  const harness = await startRecorder({ topic, batchSize: 100 });
  const group = harness.trigger.consumerGroupId;
  const atEnd = async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd && p.logEnd === PER_PARTITION);
  await waitFor('committed offsets at the log end', atEnd, 60_000, 200, async () => {
    const where = (await offsets(group, topic)).map((p) => `p${p.partition} ${p.committed}/${p.logEnd}`).join(', ');
    const seen = harness.seen().flatMap(recordsOf).length;
    return `committed/log end: ${where}; ${seen} records invoked in ${harness.seen().length} invocations; joins: ${JSON.stringify(harness.joins)}`;
  });

  const delivered = harness.seen().flatMap(recordsOf);
  expect(delivered).toHaveLength(codecOf.length * PER_PARTITION);
  for (const [partition, { records: want }] of produced.entries()) {
    const got = delivered.filter((r) => r.partition === partition);
    expect(got.map((r) => r.offset)).toEqual(want.map((_, i) => i));
    got.forEach((r, i) => {
      const w = want[i]!;
      expect(r).toStrictEqual({
        topic, partition, offset: i, timestamp: w.timestamp, timestampType: 'CREATE_TIME',
        key: b64(w.key), value: b64(w.value), headers: (w.headers ?? []).map(([name, v]) => ({ [name]: [...v] })),
      });
    });
  }
  return harness;
}

describe('every Kafka codec, from librdkafka', () => {
  const topics: string[] = [];
  let harness: Harness | undefined;
  const run = async (name: string, codecs: Compression[]) => {
    const topic = uniqueName(name);
    topics.push(topic);
    harness = await drain(topic, codecs);
    console.log(`[codecs] ${codecs.join('+')}: ${harness.seen().length} invocations, every record byte-identical, committed at the log end`);
    await harness.stop();
    harness = undefined;
  };
  afterAll(async () => {
    await harness?.stop();
    for (const t of topics) await deleteTopic(t);
  });

  it.each(['gzip', 'snappy', 'lz4', 'zstd'] as const)('%s: every record once, bytes equal, committed to the log end', async (codec) => {
    await run(`codec-${codec}`, [codec, codec]);
  });

  it('one trigger over a topic whose partitions use different codecs', async () => {
    await run('codec-mixed', ['none', 'gzip', 'snappy', 'lz4', 'zstd']);
  });
});
