/**
 * The librdkafka member's commits resolve on the coordinator's answer (issue 29). The binding's
 * commitCb calls back once librdkafka has queued the commit; a refusal reaches only
 * offset_commit_cb. Here a commit whose metadata is over the broker's bound (4,096 bytes) must
 * come back refused as `metadata-too-large` with nothing written, and a plain commit must be on
 * the broker the moment it resolves.
 */
import { describe, expect, it } from 'vitest';
import type { CommitResult, PartitionBatch } from '../../framework/kafka/group-member.ts';
import { createRdkafkaMember } from '../../framework/kafka/rdkafka/member.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';
import { brokers, createTopic, offsets, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';

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
    const member = createRdkafkaMember({
      brokers: brokers(), clientId: 'sluice-test-commit', groupId, topic, groupProtocol: 'consumer', askedBy: 'rdkafka-commit.test.ts',
      fromBeginning: true, sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 60_000, heartbeatIntervalMs: 3_000,
      maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 1024 * 1024, concurrency: 1,
      logger: testLogger, events: new Instrumentation(), onBatch, onCrash: (e) => crashes.push(e),
    });
    await member.start();
    try {
      await waitFor('the first 20 committed', async () => (await committed()) === 20, 60_000);
      await produceRecords(20);
      await waitFor('every record committed', async () => (await committed()) === 40, 60_000);
    } finally {
      await member.stop();
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
});
