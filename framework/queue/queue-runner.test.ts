/** The queue runner's lifecycle (the hostile review of issue 43 proved both cases on the code before their fixes). */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { ACK, type AckType } from '../kafka/share/messages.ts';
import type { AcquiredBatch, ShareRecord } from '../kafka/share/share-member.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import type { ChunkInvoker } from '../poller/chunk-invoker.ts';
import type { Delivery } from '../poller/delivery.ts';
import { QueueRunner, type Acknowledger } from './queue-runner.ts';

const trigger = {
  functionName: 'f', batchSize: 1,
  failure: { maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: undefined },
} as unknown as TriggerSpec;

function runner(invoke: (offsets: number[]) => Promise<void>): QueueRunner {
  const invoker = { invoke: async (_b: unknown, item: { records: ShareRecord[] }) => (await invoke(item.records.map((r) => r.offset)), { ok: true, payload: null }) } as unknown as ChunkInvoker;
  const delivery = { sendToDestination: async () => true } as unknown as Delivery;
  return new QueueRunner({ trigger, concurrency: 1, invoker, delivery, events: new Instrumentation(), logger: createLogger('t', { level: 'error' }), matches: () => true, maxPayloadBytes: 6_000_000, envelopeBytes: () => 200 });
}

const rec = (offset: number): ShareRecord => ({ topic: 't', partition: 0, offset, timestamp: Date.now(), timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [], deliveryCount: 1 });
const batch = (offsets: number[]): AcquiredBatch => ({ topic: 't', partition: 0, records: offsets.map(rec), lockExpiresAt: Date.now() + 30_000, leader: 1 });

function acks(): Acknowledger & { log: Array<{ offsets: readonly number[]; type: AckType }> } {
  const log: Array<{ offsets: readonly number[]; type: AckType }> = [];
  return { log, acknowledge: (_p, offsets, type) => void log.push({ offsets, type }), renew: () => true };
}

describe('the queue runner', () => {
  it('runs the records of a member that replaces a stopped one', async () => {
    const invoked: number[] = [];
    const r = runner(async (o) => void invoked.push(...o));
    const first = acks();
    r.bind(first);
    r.take(batch([0]));
    await new Promise((res) => setTimeout(res, 50));
    await r.stop();
    const second = acks();
    r.bind(second);
    r.take(batch([1]));
    await new Promise((res) => setTimeout(res, 50));
    expect(invoked).toEqual([0, 1]);
    expect(second.log).toEqual([{ offsets: [1], type: ACK.ACCEPT }]);
  });

  it('releases at once what a fetch under way hands over while it stops', async () => {
    const r = runner((o) => new Promise((res) => setTimeout(res, o[0] === 0 ? 200 : 0)));
    const a = acks();
    r.bind(a);
    r.take(batch([0]));
    const stopping = r.stop(); // waits for offset 0's invocation
    r.take(batch([1]));
    await stopping;
    expect(a.log).toEqual([{ offsets: [1], type: ACK.RELEASE }, { offsets: [0], type: ACK.ACCEPT }]);
  });
});
