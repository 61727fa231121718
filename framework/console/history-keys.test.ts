/**
 * A summary's keys are decoded when a page or the key filter asks, not for every invocation on the
 * poller's path (a firehose with a page open decodes only what the page is sent), and they survive their records.
 */
import { describe, expect, it, vi } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';

// Counts every key decoded: keyText is history.ts's only caller of printable().
const decoded = vi.hoisted(() => ({ n: 0 }));
vi.mock('../observe/printable.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../observe/printable.ts')>();
  return { ...real, printable: (...a: Parameters<typeof real.printable>) => (decoded.n++, real.printable(...a)) };
});
const { eventOf, InvocationHistory, summaryOf } = await import('./history.ts');

const record = (offset: number, key: string): KafkaRecord => ({
  topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(key), value: Buffer.from('v'), headers: [],
});
const source = { bootstrapServers: 'b:9092' };

describe('the keys of a summary', () => {
  it('are not decoded per invocation at a firehose, and are there, the first five, when asked for after the records went', () => {
    decoded.n = 0;
    // One second: past 10 a second, a successful one lets its records go; every one listed.
    const h = new InvocationHistory({ listedPerSecond: 1_000 }, () => 1_000_000);
    h.subscribe(() => undefined); // a page open (no page: those past the rate are not listed at all)
    for (let i = 0; i < 1_000; i++) {
      const e = h.start({ functionName: 'f', records: Array.from({ length: 10 }, (_, j) => record(i * 10 + j, `key-${i}-${j}`)), source, requestId: `r${i}`, attempt: 1 });
      h.end(e, { ok: true, durationMs: 1 });
    }
    expect(decoded.n).toBe(0);
    const newest = h.list({ limit: 1 })[0]!;
    expect(eventOf(newest)).toBeUndefined();
    expect(summaryOf(newest).keys).toEqual(['key-999-0', 'key-999-1', 'key-999-2', 'key-999-3', 'key-999-4']);
    expect(h.list({ key: 'KEY-999-3' }).map((e) => e.id)).toEqual([newest.id]);
  });

  it('keep their own copy of the key bytes, not a view into the fetch response', () => {
    const response = Buffer.alloc(1024 * 1024, 0x61);
    const h = new InvocationHistory({}, () => 1_000_000);
    h.subscribe(() => undefined); // a page open: listed, without their records
    for (let i = 0; i < 60; i++) {
      const r = { ...record(i, 'k'), key: response.subarray(i, i + 3) };
      const e = h.start({ functionName: 'f', records: [r], source, requestId: `r${i}` });
      h.end(e, { ok: true, durationMs: 1 });
    }
    const dropped = h.list({ limit: 1 })[0]!;
    expect(eventOf(dropped)).toBeUndefined();
    expect(dropped.keyBytes![0]!.buffer).not.toBe(response.buffer);
    expect(summaryOf(dropped).keys).toEqual(['aaa']);
  });
});
