/**
 * The walking skeleton's main promise, against a real broker: every record reaches the handler
 * exactly once, in partition order, in AWS's event shape byte for byte, and the group's
 * committed offsets end at the log end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingRecord } from '../../framework/kafka/producer-port.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, recentTimestampBase, uniqueName, waitFor } from '../support/kafka.ts';

const TOTAL = 10_000;
const PARTITIONS = 3;
const BASE_TS = recentTimestampBase();

interface Produced extends OutgoingRecord {
  partition: number;
  offset: number;
}

/** Keys, headers (repeated names, binary bytes), null keys, tombstones and non-UTF-8 values. */
function makeRecords(): Produced[] {
  const next = [0, 0, 0];
  return Array.from({ length: TOTAL }, (_, i) => {
    const partition = i % PARTITIONS;
    const headers: Array<[string, Buffer]> = [];
    if (i % 3 === 0) headers.push(['trace-id', Buffer.from(`t-${i}`)]);
    if (i % 5 === 0) headers.push(['bin', Buffer.from([0x00, 0xff, i & 0xff])], ['bin', Buffer.from('second')]);
    const value = i % 13 === 0 ? null : i % 7 === 0 ? Buffer.from([0xff, 0xfe, 0xfd, i & 0xff, 0x00]) : Buffer.from(JSON.stringify({ i, text: 'héllo ✓' }));
    return { partition, offset: next[partition]!++, key: i % 10 === 0 ? null : Buffer.from(`key-${i}`), value, headers, timestamp: BASE_TS + i };
  });
}

function expectedEventRecord(topic: string, r: Produced) {
  const b64 = (v: Buffer | string | null | undefined) => (v === null || v === undefined ? null : Buffer.from(v).toString('base64'));
  return {
    topic,
    partition: r.partition,
    offset: r.offset,
    timestamp: r.timestamp,
    timestampType: 'CREATE_TIME',
    key: b64(r.key),
    value: b64(r.value),
    headers: (r.headers ?? []).map(([name, v]) => ({ [name]: [...Buffer.from(v)] })),
  };
}

describe('delivery through the real poller', () => {
  const topic = uniqueName('delivery');
  const produced = makeRecords();
  let harness: Harness;

  beforeAll(async () => {
    await createTopic(topic, PARTITIONS);
    await produce(topic, produced);
  });
  afterAll(async () => {
    await harness?.stop();
    await deleteTopic(topic);
  });

  it('delivers 10,000 records exactly once, in order, in the AWS event shape, and commits to the log end', async () => {
    const started = Date.now();
    harness = await startRecorder({ topic, batchSize: 250 });
    const group = harness.trigger.consumerGroupId;
    await waitFor('committed offsets at the log end', async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd && p.logEnd > 0), 120_000);
    const elapsed = Date.now() - started;

    const seen = harness.seen();
    const delivered = seen.flatMap(recordsOf);
    console.log(`[delivery] ${delivered.length} records in ${seen.length} invocations, ${elapsed} ms from start to last commit: ${Math.round((TOTAL / elapsed) * 1000)} records/s`);

    // Exactly once.
    expect(delivered).toHaveLength(TOTAL);
    expect(new Set(delivered.map((r) => `${r.partition}:${r.offset}`)).size).toBe(TOTAL);

    // Every event: AWS's envelope, one partition per chunk, at most batchSize records.
    for (const s of seen) {
      expect(s.event.eventSource).toBe('SelfManagedKafka');
      expect(s.event.bootstrapServers).toBe(brokers().join(','));
      expect(Object.keys(s.event).sort()).toEqual(['bootstrapServers', 'eventSource', 'records']);
      const keys = Object.keys(s.event.records);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(new RegExp(`^${topic}-[0-2]$`));
      expect(recordsOf(s).length).toBeLessThanOrEqual(250);
    }

    // Order within each partition, and each record field by field against what was produced.
    for (let p = 0; p < PARTITIONS; p++) {
      const got = delivered.filter((r) => r.partition === p);
      const want = produced.filter((r) => r.partition === p).map((r) => expectedEventRecord(topic, r));
      expect(got.map((r) => r.offset)).toEqual(want.map((r) => r.offset));
      for (let i = 0; i < want.length; i++) expect(got[i]).toStrictEqual(want[i]);
    }

    const committed = await offsets(group, topic);
    expect(committed).toEqual([0, 1, 2].map((partition) => ({ partition, committed: Math.ceil((TOTAL - partition) / 3), logEnd: Math.ceil((TOTAL - partition) / 3) })));
  });
});
