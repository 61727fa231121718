/**
 * The member drops records its assignment already committed past (a fetch from before a seek can
 * deliver them again). A partition paused because its buffer was full, whose buffer then held only
 * such records, was never resumed (found by review: it stalled for good). librdkafka is replaced
 * by a fake that honours pause and resume (a paused partition delivers nothing); the member's
 * own code runs unchanged.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

type Msg = { topic: string; partition: number; offset: number; size: number; value: Buffer; key: null; timestamp: number };
const msg = (offset: number, size: number): Msg => ({ topic: 'orders', partition: 0, offset, size, value: Buffer.from(`v${offset}`), key: null, timestamp: 0 });

class FakeConsumer extends EventEmitter {
  static last: FakeConsumer;
  paused = new Set<number>();
  queue: Msg[] = [];
  hw = 0;
  /** Seeks answer with this error while set. */
  seekError: { message: string; code: number } | null = null;
  seeks: number[] = [];
  constructor(public config: any) { super(); FakeConsumer.last = this; }
  connect(_o: unknown, cb: (e: null) => void) { setImmediate(() => { this.emit('ready'); cb(null); }); }
  subscribe() { setImmediate(() => this.config.rebalance_cb({ code: -175 }, [{ topic: 'orders', partition: 0 }])); }
  setDefaultConsumeTimeout() {}
  setDefaultIsTimeoutOnlyForFirstMessage() {}
  consume(_n: number, cb: (e: null, m: Msg[]) => void) {
    const out = this.queue.filter((m) => !this.paused.has(m.partition));
    this.queue = this.queue.filter((m) => this.paused.has(m.partition));
    setTimeout(() => cb(null, out), 5);
  }
  incrementalAssign() {}
  incrementalUnassign() {}
  unassign() {}
  rebalanceProtocol() { return 'COOPERATIVE'; }
  pause(parts: Array<{ partition: number }>) { for (const p of parts) this.paused.add(p.partition); }
  resume(parts: Array<{ partition: number }>) { for (const p of parts) this.paused.delete(p.partition); }
  seek(tp: { offset: number }, _t: number, cb?: (e: unknown) => void) { this.seeks.push(tp.offset); setImmediate(() => cb?.(this.seekError)); }
  getWatermarkOffsets() { return { lowOffset: 0, highOffset: this.hw }; }
  commitCb(offsets: unknown[], cb: (e: null) => void) { cb(null); setImmediate(() => this.config.offset_commit_cb(undefined, offsets)); }
  isConnected() { return true; }
  disconnect(cb: () => void) { cb(); }
}

vi.mock('./client.ts', () => ({ loadRdkafka: () => ({ KafkaConsumer: FakeConsumer }) }));

const { createRdkafkaMember } = await import('./member.ts');
const logger: any = { error() {}, warn() {}, info() {}, debug() {}, child: () => logger, level: 'warn' };

describe('rdkafka member: records already committed past', () => {
  it('skips records committed past, and a partition paused for a full buffer of them fetches on', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const member = createRdkafkaMember({
      brokers: ['127.0.0.1:1'], clientId: 'c', groupProtocol: 'consumer', askedBy: 'functions.f.events[0].sluice',
      groupId: 'g', topic: 'orders', fromBeginning: true, sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 300_000, heartbeatIntervalMs: 3_000,
      maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 100_000, concurrency: 1, logger,
      events: { emit() {} } as any,
      onCrash: (e: Error) => { throw e; },
      async onBatch(batch: any) {
        batches.push(batch.records.map((r: { offset: number }) => r.offset));
        if (batches.length === 1) await gate;
        const r = await batch.commit(batch.records.at(-1).offset + 1);
        expect(r).toEqual({ ok: true });
      },
    } as any);
    await member.start();
    const c = FakeConsumer.last;
    c.hw = 10;
    c.queue.push(...Array.from({ length: 10 }, (_, i) => msg(i, 100)));
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    // While offsets 0-9 run: a fetch from before a seek delivers 5-9 again, 150 kB: the buffer is full, the partition paused.
    c.queue.push(...[5, 6, 7, 8, 9].map((o) => msg(o, 30_000)));
    await vi.waitFor(() => expect(c.paused.has(0)).toBe(true));
    release(); // batch 0-9 commits 10; the buffer (5-9) is all below it and is dropped
    // New records arrive.
    c.hw = 20;
    c.queue.push(...Array.from({ length: 10 }, (_, i) => msg(10 + i, 100)));
    await new Promise((r) => setTimeout(r, 1_000));
    console.log(`[committed-past] batches ${JSON.stringify(batches)}; partition 0 paused: ${c.paused.has(0)}; records waiting undelivered: ${c.queue.length}`);
    await member.stop();
    expect(batches).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]);
  });

  it('a seek that keeps failing stops the member instead of fetching on past the records the batch left', async () => {
    const crashes: Error[] = [];
    const batches: number[][] = [];
    const member = createRdkafkaMember({
      brokers: ['127.0.0.1:1'], clientId: 'c', groupProtocol: 'consumer', askedBy: 'functions.f.events[0].sluice',
      groupId: 'g', topic: 'orders', fromBeginning: true, sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 300_000, heartbeatIntervalMs: 3_000,
      maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 100_000, concurrency: 1, logger,
      events: { emit() {} } as any,
      onCrash: (e: Error) => void crashes.push(e),
      // A retry: the batch ends where it began, so the partition must fetch from offset 0 again.
      async onBatch(batch: any) {
        batches.push(batch.records.map((r: { offset: number }) => r.offset));
        batch.fetchFrom(batch.records[0].offset);
      },
    } as any);
    await member.start();
    const c = FakeConsumer.last;
    c.seekError = { message: 'Local: Erroneous state', code: -172 };
    c.hw = 5;
    c.queue.push(...Array.from({ length: 5 }, (_, i) => msg(i, 100)));
    await vi.waitFor(() => expect(crashes).toHaveLength(1), { timeout: 5_000 });
    // Records from a fetch that went on past the failed seek: never handed to a batch.
    c.queue.push(...Array.from({ length: 5 }, (_, i) => msg(5 + i, 100)));
    await new Promise((r) => setTimeout(r, 200));
    await member.stop();
    console.log(`[seek-failed] seeks ${JSON.stringify(c.seeks)}; crash: ${crashes[0]?.message}`);
    expect(c.seeks).toEqual([0, 0, 0]);
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
    expect(crashes[0]!.message).toMatch(/could not seek orders-0 to offset 0 \(3 tries, the last: Local: Erroneous state\)/);
  });
});
