/**
 * The librdkafka member's commits resolve on the coordinator's answer (issue 29). The binding's
 * commitCb calls back once librdkafka has queued the commit; a refusal reaches only
 * offset_commit_cb. Here a commit whose metadata is over the broker's bound (4,096 bytes) must
 * come back refused as `metadata-too-large` with nothing written, and a plain commit must be on
 * the broker the moment it resolves.
 */
import { describe, expect, it } from 'vitest';
import type { CommitResult, PartitionBatch } from '../../framework/kafka/member-port.ts';
import { createRdkafkaMember } from '../../framework/kafka/rdkafka/member.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';
import { brokers, createTopic, offsets, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';

/** A librdkafka member of `groupId` on `topic` from its first record, one batch at a time. */
function member(groupId: string, topic: string, onBatch: (batch: PartitionBatch) => Promise<void>, crashes: Error[]) {
  return createRdkafkaMember({
    brokers: brokers(), clientId: 'sluice-test-commit', groupId, topic, groupProtocol: 'consumer', askedBy: 'rdkafka-commit.test.ts',
    fromBeginning: true, sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 60_000, heartbeatIntervalMs: 3_000,
    maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 1024 * 1024, concurrency: 1,
    logger: testLogger, events: new Instrumentation(), onBatch, onCrash: (e) => crashes.push(e),
  });
}

describe('librdkafka member: commits', () => {
  const { topics } = cleanupAfterAll();

  it('answers a refused commit as refused and writes nothing; a commit that resolves ok is on the broker', async () => {
    const topic = uniqueName('rdk-commit');
    const groupId = uniqueName('rdk-commit-g');
    topics.push(topic);
    await createTopic(topic, 1);
    const produceRecords = (from: number) => produce(topic, Array.from({ length: 20 }, (_, i) => ({ value: `v${from + i}`, partition: 0 })));
    await produceRecords(0);

    const seen: Array<{ end: number; tooLong: CommitResult; committedAfterRefusal: number; plain: CommitResult; committedAfterOk: number }> = [];
    const committed = async () => (await offsets(groupId, topic))[0]!.committed;
    const onBatch = async (batch: PartitionBatch) => {
      const end = batch.records[batch.records.length - 1]!.offset + 1;
      const tooLong = await batch.commit(end, { metadata: 'x'.repeat(5_000) });
      const committedAfterRefusal = await committed();
      const plain = await batch.commit(end);
      seen.push({ end, tooLong, committedAfterRefusal, plain, committedAfterOk: await committed() });
    };
    const crashes: Error[] = [];
    const m = member(groupId, topic, onBatch, crashes);
    await m.start();
    try {
      await waitFor('the first 20 committed', async () => (await committed()) === 20, 60_000);
      await produceRecords(20);
      await waitFor('every record committed', async () => (await committed()) === 40, 60_000);
    } finally {
      await m.stop();
    }
    console.log(`[rdkafka commit] ${seen.length} batches: ${seen.map((s) => `${s.end}: ${s.tooLong.ok ? 'ok' : s.tooLong.reason} / ${s.plain.ok ? 'ok' : s.plain.reason}`).join(', ')}`);

    expect(crashes).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    let before = -1;
    for (const s of seen) {
      expect(s.tooLong).toMatchObject({ ok: false, reason: 'metadata-too-large' });
      expect(s.committedAfterRefusal).toBe(before);
      expect(s.plain).toEqual({ ok: true });
      expect(s.committedAfterOk).toBe(s.end);
      before = s.end;
    }
  });

  it("a stop while a batch runs: the batch's last commit is answered (librdkafka answers only inside a poll) and lands", async () => {
    const topic = uniqueName('rdk-commit-stop');
    const groupId = uniqueName('rdk-commit-stop-g');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}`, partition: 0 })));
    const results: CommitResult[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const onBatch = async (batch: PartitionBatch) => {
      started();
      await new Promise((r) => setTimeout(r, 1_000));
      results.push(await batch.commit(batch.records[batch.records.length - 1]!.offset + 1));
    };
    const crashes: Error[] = [];
    const m = member(groupId, topic, onBatch, crashes);
    await m.start();
    await running;
    const stopAt = Date.now();
    await m.stop();
    const stopMs = Date.now() - stopAt;
    console.log(`[rdkafka commit at stop] stop took ${stopMs} ms; commit ${JSON.stringify(results)}`);
    expect(crashes).toEqual([]);
    expect(results).toEqual([{ ok: true }]); // unanswered, it would be refused after 60 s (and hold the stop that long)
    expect((await offsets(groupId, topic))[0]!.committed).toBe(10);
  });
});
