/**
 * Review 3 (6c55667, 63a3a5e): a queue member stopped while its start is still setting or reading
 * the group's settings (IncrementalAlterConfigs, then DescribeConfigs since 63a3a5e: two round trips
 * before the join) has its stop() resolve — sessions closed, group left, transport closed — and then
 * the start goes on: ShareMember.start() on the closed transport (versions, Metadata), which on the
 * kafkajs transport reconnects the cluster (share-transport.ts ready(): `connected` was reset by
 * close()). Nothing closes it again: the stopped member holds broker connections open. The `stopped`
 * flag 6c55667 added is only looked at after member.start().
 */
import { describe, expect, it, vi } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import type { QueueRunner } from './queue-runner.ts';

const t = vi.hoisted(() => ({ closed: false, usedAfterClose: [] as string[], gate: undefined as undefined | Promise<void> }));

vi.mock('../kafka/kafkajs/share-transport.ts', () => ({
  kafkajsShareTransport: () => ({
    async send(_to: unknown, req: { request: { apiKey: number; apiName: string } }) {
      if (t.closed) t.usedAfterClose.push(req.request.apiName);
      if (req.request.apiKey === 44) {
        await t.gate; // the AlterConfigs answer comes after the stop
        return { errorCode: 30, errorMessage: null };
      }
      if (req.request.apiKey === 32) return { errorCode: 0, errorMessage: null, values: { 'share.delivery.count.limit': '10', 'share.auto.offset.reset': 'earliest' } };
      if (req.request.apiKey === 3) return { brokers: [], topics: [{ name: 'orders', topicId: '0123456789abcdef0fedcba987654321', errorCode: 0, partitions: [{ partition: 0, leader: 1, leaderEpoch: 0, errorCode: 0 }] }] };
      if (req.request.apiKey === 76) return { errorCode: 0, errorMessage: null, memberId: null, memberEpoch: 1, heartbeatIntervalMs: 5_000, assignment: null };
      throw new Error(`not scripted: ${req.request.apiName}`);
    },
    async versions() {
      if (t.closed) t.usedAfterClose.push('versions');
      return { min: 1, max: 2 };
    },
    refresh: async () => undefined,
    decode: async () => ({ records: [], through: -1 }),
    close: async () => {
      t.closed = true;
    },
  }),
}));
vi.mock('../kafka/kafkajs/admin.ts', () => ({ ClusterAdmin: { connect: () => new Promise(() => undefined) } }));

const { createQueueMember } = await import('./queue-member.ts');

const trigger = {
  functionName: 'orders', topic: 'orders', consumerGroupId: 'g', consumptionMode: 'queue', startingPosition: 'TRIM_HORIZON', batchSize: 10,
  failure: { maximumRetryAttempts: 4, onFailure: { kind: 'kafka', uri: 'kafka://dlq', topic: 'dlq' } },
} as unknown as TriggerSpec;

describe('Review 3: a queue member stopped while its start sets the group\'s settings', () => {
  it('does not use (reopen) its transport after its stop resolved', async () => {
    let release!: () => void;
    t.gate = new Promise<void>((r) => (release = r));
    const logger = createLogger('t', { level: 'error' });
    const runner = { bind() {}, take() {}, async stop() {}, capRetries() {} } as unknown as QueueRunner;
    const m = createQueueMember({ trigger, kafka: {} as never, brokers: ['x:9092'], runner, concurrency: 1, logger, events: new Instrumentation(), onCrash: () => undefined });
    const starting = m.start().then(() => 'started', (e: Error) => `refused: ${e.message}`);
    await new Promise((r) => setTimeout(r, 20));
    await m.stop(Date.now() + 1_000);
    expect(t.closed).toBe(true);
    release(); // the AlterConfigs answer arrives
    await starting;
    expect(t.usedAfterClose).toEqual([]);
  });
});
