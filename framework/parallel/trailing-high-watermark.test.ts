/**
 * A new leader's high watermark trails the old leader's for a moment after a leader change (the
 * fault tier's rolling restart, CI-30: one record invoked again by the member that had committed
 * past it). A batch of records this member already finished and committed, fetched again from
 * that leader (kafkajs runs a fetch loop per broker: the new leader's loop fetched the partition
 * from the offset resolved before the old loop's batch ended), carries a high watermark below what
 * the member fetched and committed. Both "the log was truncated" checks took it for a new log:
 * group-member.ts dropped its committed-offset guard (doneBelow), and ParallelPartitions.stateFor
 * dropped the partition's state and rebuilt it from the commit read at the start of the join
 * (stale), or set the fresh commit aside as "past the log end". ListOffsets now decides: it never
 * answers a trailing end (KIP-207).
 */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import { createGroupMember } from '../kafka/kafkajs/group-member.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import type { ChunkInvoker } from '../poller/chunk-invoker.ts';
import type { Delivery } from '../poller/delivery.ts';
import type { WorkItem } from '../poller/work-plan.ts';
import { fakeKafkajs, fakeMemberOptions } from '../../tests/support/fake-kafkajs.ts';
import { ParallelPartitions } from './parallel-partitions.ts';

const trigger = {
  functionName: 'f', topic: 't', batchSize: 20, parallelizationFactor: 4, timeoutMs: 1_000,
  failure: { maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: undefined },
} as unknown as TriggerSpec;

/** The group's commit of partition 0 as the coordinator holds it, and every invocation's offsets. */
function world(logEnd = 35) {
  const group = new Map<number, { offset: number; metadata: string | null }>();
  const invoked: number[] = [];
  const parallel = new ParallelPartitions({
    trigger, events: new Instrumentation(), logger: createLogger('test', { level: 'error' }), heartbeatIntervalMs: 1_000, invocationsShown: true,
    maxPayloadBytes: 6_000_000, envelopeBytes: () => 100,
    // ListOffsets: the log's real end (it never goes back with a leader change, KIP-207). Ignored by the unfixed code.
    readLogEnd: async () => logEnd,
    readCommitted: async () => new Map([...group].map(([p, c]) => [p, { offset: c.offset, metadata: c.metadata ?? '' }])),
    invoker: {
      invoke: async (_b: PartitionBatch, item: WorkItem) => {
        invoked.push(...item.records.map((r) => r.offset));
        await new Promise((r) => setTimeout(r, 2));
        return { ok: true, payload: null, durationMs: 1, requestId: 'r' };
      },
    } as unknown as ChunkInvoker,
    delivery: {
      sendTimeoutMs: 1_000,
      commitWith: async (batch: PartitionBatch, next: number, metadata: string | null) => ((await batch.commit(next, { metadata })).ok ? 'ok' : 'refused'),
    } as unknown as Delivery,
    policy: { fitsBudget: () => true, warnIgnoredFailures: () => undefined, sendGivenUp: async () => true },
  });
  const onBatch = (b: PartitionBatch) => parallel.process(b, b.records, b.records.map((r) => ({ records: [r], attempts: 0, bytes: 10 })), b.records.at(-1)!.offset + 1);
  return { group, invoked, parallel, onBatch };
}

const rec = (offset: number): KafkaRecord =>
  ({ topic: 't', partition: 0, offset, timestamp: Date.now(), timestampType: 'CREATE_TIME', key: Buffer.from(`k${offset}`), value: Buffer.from('v'), headers: [] }) as unknown as KafkaRecord;

/** A PartitionBatch as group-member.ts builds it, committing into `group`. */
function batchOf(w: ReturnType<typeof world>, joinId: string, offsets: number[], highWatermark: number): PartitionBatch {
  return {
    topic: 't', partition: 0, records: offsets.map(rec), highWatermark, fetchedAt: Date.now(), joinId,
    heartbeat: async () => undefined,
    commit: async (next, m) => {
      w.group.set(0, { offset: next, metadata: m?.metadata ?? null });
      return { ok: true };
    },
    fetchFrom: () => undefined, fetchFromLater: () => undefined, isActive: () => true, pauseFor: () => undefined,
  };
}

describe('a new leader\'s trailing high watermark (rolling restart)', () => {
  it('ParallelPartitions, same join: a refetched batch with a trailing high watermark runs a committed record again', async () => {
    const w = world();
    w.group.set(0, { offset: 33, metadata: null }); // what the join read when it began
    await w.onBatch(batchOf(w, 'm/1', [32], 33)); // the join's first batch: the read is cached for the join
    await w.onBatch(batchOf(w, 'm/1', [33, 34], 35)); // old leader: 33 and 34 run, commit 35
    expect(w.group.get(0)?.offset).toBe(35);
    // New leader (HW 34, one replication round behind the old leader's 35); kafkajs fetched from 33.
    await w.onBatch(batchOf(w, 'm/1', [33], 34));
    expect(w.invoked.filter((o) => o === 33), 'offset 33 invoked again after this member committed 35').toHaveLength(1);
  });

  it('ParallelPartitions, a join after the commit: the fresh commit is set aside as past the log end', async () => {
    const w = world();
    await w.onBatch(batchOf(w, 'm/1', [33, 34], 35));
    expect(w.group.get(0)?.offset).toBe(35);
    await w.onBatch(batchOf(w, 'm/2', [33], 34)); // rejoined (NOT_LEADER → joinAndSync), then the refetch
    expect(w.invoked.filter((o) => o === 33), 'offset 33 invoked again after this member committed 35').toHaveLength(1);
  });

  it('group member (kafkajs faked) + ParallelPartitions: doneBelow is dropped too, the record reaches the handler again', async () => {
    const w = world();
    const f = fakeKafkajs();
    const member = createGroupMember(fakeMemberOptions(f, { onBatch: w.onBatch, onCrash: () => undefined, readLogEnd: async () => 35 }));
    await member.start();
    f.join({ t: [0] });
    // The group's commit is what the member last committed (kafkajs's commitOffsetsIfNecessary).
    const kafkajsBatch = async (offsets: number[], highWatermark: number) => {
      await f.batch(offsets.map((offset) => ({ offset, key: `k${offset}` })), highWatermark);
      const last = f.commits.at(-1);
      if (last) w.group.set(0, last);
    };
    w.group.set(0, { offset: 33, metadata: null });
    await kafkajsBatch([33, 34], 35); // old leader
    expect(w.group.get(0)?.offset).toBe(35);
    await kafkajsBatch([33], 34); // new leader, trailing high watermark; no join in between
    expect(w.invoked.filter((o) => o === 33), 'offset 33 invoked again after this member committed 35').toHaveLength(1);
  });

  it('a log really truncated (ListOffsets agrees) is still read as a new log', async () => {
    const w = world(34);
    await w.onBatch(batchOf(w, 'm/1', [33, 34], 35));
    await w.onBatch(batchOf(w, 'm/1', [33], 34));
    expect(w.invoked.filter((o) => o === 33)).toHaveLength(2);
  });
});
