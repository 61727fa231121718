/**
 * Review (7a8e35e): a held (packed) event is unpacked whole, a record object and three buffer views
 * per record, to read the five keys a summary shows (firstKeys: every summary a page is sent) or to
 * copy them when the byte budget lets it go (letGo, on the poller's path in hold()).
 */
import { describe, expect, it, vi } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';

const built = vi.hoisted(() => ({ records: 0 }));
vi.mock('../invoke/record-transfer.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../invoke/record-transfer.ts')>();
  return { ...real, unpackRecords: (...a: Parameters<typeof real.unpackRecords>) => { const r = real.unpackRecords(...a); built.records += r.length; return r; } };
});
const { InvocationHistory, summaryOf } = await import('./history.ts');

const source = { bootstrapServers: 'b:9092' };
const chunk = (from: number, n: number, valueBytes = 10): KafkaRecord[] =>
  Array.from({ length: n }, (_, i) => ({ topic: 't', partition: 0, offset: from + i, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(`k${from + i}`), value: Buffer.alloc(valueBytes), headers: [] }));

describe('a held event of 1,000 records', () => {
  it('gives its summary five keys without building 1,000 records', () => {
    const h = new InvocationHistory();
    const e = h.start({ functionName: 'f', records: chunk(0, 1_000), source, requestId: 'r' });
    h.end(e, { ok: true, durationMs: 1 });
    built.records = 0;
    expect(summaryOf(e).keys).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(built.records).toBeLessThanOrEqual(5);
  });

  it('is let go for the byte budget (in hold(), on the poller\'s path) without building 1,000 records', () => {
    const h = new InvocationHistory({ eventBytes: 200_000 });
    const first = h.start({ functionName: 'f', records: chunk(0, 1_000, 100), source, requestId: 'a' });
    h.end(first, { ok: false, durationMs: 1 }); // a failure: held
    built.records = 0;
    const next = h.start({ functionName: 'f', records: chunk(1_000, 1_000, 100), source, requestId: 'b' });
    h.end(next, { ok: false, durationMs: 1 }); // past the budget: the first is let go
    expect(first.eventDropped).toMatch(/dropped to keep/);
    expect(built.records).toBeLessThanOrEqual(5);
  });
});
