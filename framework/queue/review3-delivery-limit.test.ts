/**
 * Review 3 (63a3a5e): when Sluice may not set the share group's delivery limit, it reads it
 * (DescribeConfigs on the GROUP) and caps the retries, or, when it cannot read it, warns that a lower
 * limit gives records up before they reach the on-failure destination. But a DescribeConfigs answer
 * without a usable share.delivery.count.limit (the key not listed — a broker that does not know it as a
 * group config filters it out —, or a value that is not a number) counts as "read": no cap, and no
 * warning at all about the delivery limit. Before the commit the refusal always warned.
 *
 * Review 3 (63a3a5e): the warnings that say the retries were capped to the group's delivery limit
 * (and what to grant) pass the broker's refusal as fields { error, message }. With
 * SLUICE_LOG_FORMAT=json (the deployed format) the logger spreads the fields after its own
 * `message`, so the line's message is the broker's error text ("Group authorization failed.") — or
 * null, Kafka's usual errorMessage — and the explanation (limit, capped deliveries, the fix) is lost.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import type { QueueRunner } from './queue-runner.ts';

const answers = vi.hoisted(() => ({ described: {} as Record<string, string | null>, errorMessage: null as string | null }));

vi.mock('../kafka/share/group-messages.ts', async (original) => {
  const m = await original<typeof import('../kafka/share/group-messages.ts')>();
  return {
    ...m,
    alterGroupConfig: (...a: Parameters<typeof m.alterGroupConfig>) => Object.assign(m.alterGroupConfig(...a), { kind: 'alter' }),
    describeGroupConfig: (...a: Parameters<typeof m.describeGroupConfig>) => Object.assign(m.describeGroupConfig(...a), { kind: 'describe' }),
  };
});
vi.mock('../kafka/kafkajs/share-transport.ts', () => ({
  kafkajsShareTransport: () => ({
    async send(_to: unknown, req: { kind?: string }) {
      // No AlterConfigs on the group; DescribeConfigs allowed.
      if (req.kind === 'alter') return { errorCode: 30, errorMessage: answers.errorMessage };
      if (req.kind === 'describe') return { errorCode: 0, errorMessage: null, values: answers.described };
      throw new Error('not scripted');
    },
    versions: async () => ({ min: 1, max: 2 }),
    refresh: async () => undefined,
    decode: async () => ({ records: [], through: -1 }),
    close: async () => undefined,
  }),
}));
vi.mock('../kafka/share/share-member.ts', () => ({
  ShareMember: class {
    async start() {}
    async stop() {}
    memberId() {
      return 'm-1';
    }
  },
}));
vi.mock('../kafka/kafkajs/admin.ts', () => ({ ClusterAdmin: { connect: () => new Promise(() => undefined) } }));

const { createQueueMember } = await import('./queue-member.ts');

const trigger = {
  functionName: 'orders', topic: 'orders', consumerGroupId: 'g', consumptionMode: 'queue', startingPosition: 'TRIM_HORIZON', batchSize: 10,
  failure: { maximumRetryAttempts: 4, onFailure: { kind: 'kafka', uri: 'kafka://dlq', topic: 'dlq' } },
} as unknown as TriggerSpec;

/** Starts and stops a member whose AlterConfigs is refused (with `errorMessage`) and whose DescribeConfigs answers `described`: the caps and the warning lines. */
async function startWith(described: Record<string, string | null>, o: { errorMessage?: string | null; format?: 'text' | 'json' } = {}) {
  answers.described = described;
  answers.errorMessage = o.errorMessage === undefined ? 'Group authorization failed.' : o.errorMessage;
  const lines: string[] = [];
  const logger = createLogger('t', { level: 'warn', format: o.format ?? 'text', write: (l) => void lines.push(l) });
  const caps: number[] = [];
  const runner = { bind() {}, take() {}, async stop() {}, capRetries: (n: number) => void caps.push(n) } as unknown as QueueRunner;
  const m = createQueueMember({ trigger, kafka: {} as never, brokers: ['x:9092'], runner, concurrency: 1, logger, events: new Instrumentation(), onCrash: () => undefined });
  await m.start();
  await m.stop(Date.now());
  return { caps, warnings: lines };
}

describe('Review 3 (63a3a5e): AlterConfigs refused, and the group\'s delivery limit not in the DescribeConfigs answer', () => {
  it('sanity: a limit read below what the retries need caps them and warns', async () => {
    const { caps, warnings } = await startWith({ 'share.delivery.count.limit': '3', 'share.auto.offset.reset': 'earliest' });
    expect(caps).toEqual([1]);
    expect(warnings.some((w) => w.includes('share.delivery.count.limit'))).toBe(true);
  });

  it('still warns that the delivery limit could not be set (nor read) when the answer has no limit', async () => {
    const { caps, warnings } = await startWith({ 'share.auto.offset.reset': 'earliest' });
    expect(caps).toEqual([]);
    expect(warnings.filter((w) => w.includes('share.delivery.count.limit'))).toHaveLength(1);
  });

  it('still warns when the limit read is not a number', async () => {
    const { warnings } = await startWith({ 'share.delivery.count.limit': null, 'share.auto.offset.reset': 'earliest' });
    expect(warnings.filter((w) => w.includes('share.delivery.count.limit'))).toHaveLength(1);
  });
});

describe('Review 3 (63a3a5e): the capped-retries warning in JSON logs', () => {
  for (const errorMessage of ['Group authorization failed.', null]) {
    it(`keeps its explanation as the line's message (broker errorMessage ${JSON.stringify(errorMessage)})`, async () => {
      const { caps, warnings: lines } = await startWith({ 'share.delivery.count.limit': '3', 'share.auto.offset.reset': 'earliest' }, { errorMessage, format: 'json' });
      const warnings = lines.map((l) => JSON.parse(l) as { message: unknown });
      expect(caps).toEqual([1]);
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]!.message)).toMatch(/share\.delivery\.count\.limit.*Grant AlterConfigs/);
    });
  }
});
