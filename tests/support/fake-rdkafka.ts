/**
 * librdkafka's binding replaced for member tests that need a shape no broker makes on demand (a
 * seek that fails, a fetch from before a seek): it honours pause and resume (a paused partition
 * delivers nothing), serves a queue of messages the test fills, and answers commits. The
 * member's own code runs unchanged: `vi.mock` its client.ts with `fakeRdkafkaClient`.
 */
import { EventEmitter } from 'node:events';

export type Msg = { topic: string; partition: number; offset: number; size: number; value: Buffer; key: null; timestamp: number };
export const msg = (offset: number, size: number): Msg => ({ topic: 'orders', partition: 0, offset, size, value: Buffer.from(`v${offset}`), key: null, timestamp: 0 });

export class FakeConsumer extends EventEmitter {
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


/** Whether the fake binding carries Sluice's patch (client.ts's rdkafkaPatch): a test may turn it off. */
export const fakePatch: { patched: boolean; why?: string } = { patched: true };
export const fakeRdkafkaClient = () => ({ loadRdkafka: () => ({ KafkaConsumer: FakeConsumer }), rdkafkaPatch: () => fakePatch });

export const silentLogger: any = { error() {}, warn() {}, info() {}, debug() {}, child: () => silentLogger, level: 'warn' };

/** The librdkafka member's options for one partition of 'orders' on the fake consumer: a test adds onBatch, onCrash and what it varies. */
export const fakeMemberOptions = (more: Record<string, unknown>): any => ({
  brokers: ['127.0.0.1:1'], clientId: 'c', groupProtocol: 'consumer', askedBy: 'functions.f.events[0].sluice',
  groupId: 'g', topic: 'orders', fromBeginning: true, sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 300_000, heartbeatIntervalMs: 3_000,
  maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 100_000, concurrency: 1, logger: silentLogger,
  events: { emit() {} },
  ...more,
});
