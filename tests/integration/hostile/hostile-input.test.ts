/**
 * The hostile-input tier (README, "Bounds on hostile input"): what anyone allowed to write to a
 * consumed topic can send, generated with fast-check (the seed is printed; SLUICE_HOSTILE_SEED
 * replays one), produced to a real broker and run through the real poller with a JSON filter, a
 * retry policy and a kafka:// destination. Each run checks the trigger stays up (no consumer
 * restart), every record ends invoked, filtered out or in the destination with the expected
 * reason, the poller's event loop is never blocked longer than a heartbeat interval, and its RSS
 * stays under RSS_BOUND.
 */
import kafkajs from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { FAILURE_HEADERS } from '../../../framework/failure/failed-record.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../../support/harness.ts';
import { deleteTopic, kafka, offsets, readTopic, uniqueName, waitFor } from '../../support/kafka.ts';
import { hostileBatches, type Codec, type HostileBatch } from './generate.ts';
import { account, createTopics, describeCounts, HEARTBEAT_INTERVAL_MS, kafkaEnds, RSS_BOUND, watchProcess, type Fate } from './watch.ts';

const PARTITIONS = 2;
const { CompressionTypes } = kafkajs;
const COMPRESSION: Record<Codec, number> = { none: CompressionTypes.None, gzip: CompressionTypes.GZIP, snappy: CompressionTypes.Snappy, lz4: CompressionTypes.LZ4, zstd: CompressionTypes.ZSTD };

/** Produces each batch as one request (one record batch), and returns what must become of each offset: `partition:offset` -> fate. */
async function produceAll(topic: string, batches: HostileBatch[]): Promise<Map<string, { fate: Fate; kind: string }>> {
  const producer = kafka().producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const expected = new Map<string, { fate: Fate; kind: string }>();
  try {
    for (const [i, b] of batches.entries()) {
      const partition = i % PARTITIONS;
      const messages = b.records.map((r) => {
        const headers: Record<string, Buffer[]> = Object.create(null);
        for (const [name, value] of r.headers ?? []) (headers[name] ??= []).push(value);
        return { partition, value: r.value, headers };
      });
      const [meta] = await producer.send({ topic, compression: COMPRESSION[b.codec], acks: -1, messages });
      b.records.forEach((r, j) => expected.set(`${partition}:${Number(meta!.baseOffset) + j}`, { fate: r.fate, kind: `${b.kind}/${b.codec}` }));
    }
  } finally {
    await producer.disconnect();
  }
  return expected;
}

describe('hostile input', () => {
  const topics: string[] = [];
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await Promise.all(topics.map(deleteTopic));
  });

  it('keeps the trigger up and accounts for every record, within the heartbeat interval and the RSS bound', async () => {
    const seed = Number(process.env.SLUICE_HOSTILE_SEED ?? Date.now() % 1_000_000);
    const batches = hostileBatches(seed);
    const kinds = new Map<string, number>();
    for (const b of batches) kinds.set(`${b.kind}/${b.codec}`, (kinds.get(`${b.kind}/${b.codec}`) ?? 0) + b.records.length);
    console.log(`[hostile] seed ${seed}: ${batches.length} batches, ${batches.reduce((n, b) => n + b.records.length, 0)} records: ${describeCounts(kinds)}`);

    const topic = uniqueName('hostile');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopics([[topic, 8 * 1024 * 1024], [failed, 16 * 1024 * 1024]], PARTITIONS);
    const expected = await produceAll(topic, batches);

    const watch = watchProcess();
    const stopped: unknown[] = [];
    const sent = new Map<string, string>();
    let watched: ReturnType<ReturnType<typeof watchProcess>['end']>;
    try {
      h = await startRecorder({
        topic, batchSize: 50, heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS, filterPatterns: [{ value: { keep: [true] } }],
        failure: failurePolicy({ maximumRetryAttempts: 2, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }),
      });
      h.events.on('trigger.consumer_stopped', (e) => stopped.push(e.error));
      h.events.on('poller.sent_to_destination', (e) => e.offsets.forEach((o) => sent.set(`${e.partition}:${o}`, e.reason)));
      const ends = await kafkaEnds(topic);
      await waitFor('every partition committed to its end', async () => (await offsets(h!.trigger.consumerGroupId, topic)).every((p) => p.committed === ends[p.partition]), 150_000, 500);
    } finally {
      watched = watch.end();
    }
    const { blockedMs, p99Ms, rss } = watched;
    console.log(`[hostile] worst event-loop delay ${blockedMs.toFixed(0)} ms (p99 ${p99Ms.toFixed(0)} ms); peak RSS ${(rss / 1024 ** 2).toFixed(0)} MiB; consumer restarts ${stopped.length}`);

    const invoked = new Set(h!.seen().flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`));
    const inDestination = new Map((await readTopic(failed, sent.size, 60_000)).map((r) => [`${r.headers[FAILURE_HEADERS.partition]}:${r.headers[FAILURE_HEADERS.offset]}`, String(r.headers[FAILURE_HEADERS.reason])]));
    const { fates, wrong } = account(expected, invoked, inDestination);
    console.log(`[hostile] outcomes: ${describeCounts(fates, '; ')}`);
    expect(stopped).toEqual([]);
    expect(wrong).toEqual([]);
    expect(blockedMs).toBeLessThan(HEARTBEAT_INTERVAL_MS);
    expect(rss).toBeLessThan(RSS_BOUND);
  });
});
