import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { eventOf, InvocationHistory, summaryOf, type Invocation } from './history.ts';

const record = (offset: number, value = 'v', key: string | null = `k${offset}`): KafkaRecord => ({
  topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: key === null ? null : Buffer.from(key), value: Buffer.from(value), headers: [],
});
const source = { bootstrapServers: 'b:9092' };

describe('InvocationHistory', () => {
  it('keeps the last `size` invocations per function, newest first, each function its own ring', () => {
    const h = new InvocationHistory({ size: 3 });
    for (let i = 0; i < 5; i++) h.start({ functionName: 'a', records: [record(i)], source, requestId: `a${i}` });
    h.start({ functionName: 'b', records: [record(0)], source, requestId: 'b0' });
    expect(h.list({ function: 'a' }).map((e) => e.firstOffset)).toEqual([4, 3, 2]);
    expect(h.list({ function: 'b' })).toHaveLength(1);
    expect(h.usage().entries).toBe(4);
  });

  it('drops the oldest records past the byte budget, keeping their summaries and saying why', () => {
    const h = new InvocationHistory({ eventBytes: 3_000 });
    const big = 'x'.repeat(1_000);
    const entries = [0, 1, 2, 3].map((i) => h.start({ functionName: 'a', records: [record(i, big)], source, requestId: `r${i}` }));
    for (const e of entries) h.end(e, { ok: true, durationMs: 1 }); // ended: the budget holds them (running, the poller does)
    expect(h.usage().eventBytes).toBeLessThanOrEqual(3_000);
    expect(eventOf(entries[0]!)).toBeUndefined();
    expect(entries[0]!.eventDropped).toMatch(/dropped to keep the console's history within/);
    expect(eventOf(entries[3]!)).toHaveLength(1);
    expect(h.list({ function: 'a' })).toHaveLength(4);
  });

  it('ties a handler line to its running invocation, bounds lines and their length, and ignores lines of none', () => {
    const h = new InvocationHistory({ logLines: 2, logLineBytes: 5 });
    const e = h.start({ functionName: 'a', records: [record(0)], source, requestId: 'r' });
    h.log('r', 'info', 'hello world');
    h.log(undefined, 'info', 'between invocations');
    h.log('other', 'info', 'not ours');
    h.log('r', 'error', 'two');
    h.log('r', 'error', 'three');
    expect(e.logs.map((l) => [l.level, l.text])).toEqual([['info', 'hello…'], ['error', 'two']]);
    expect(e.logsTruncated).toBe(true);
    h.end(e, { ok: true, durationMs: 3, payload: { batchItemFailures: [] } });
    h.log('r', 'info', 'after the end');
    expect(e.logs).toHaveLength(2);
    expect(e).toMatchObject({ outcome: 'ok', durationMs: 3, response: { batchItemFailures: [] } });
  });

  it('ends the invocation found by the request id it started with, taking the poller\'s reading of the answer and the request id the invoker answered with', () => {
    const h = new InvocationHistory();
    const e = h.start({ functionName: 'a', records: [record(5), record(6)], source, requestId: 'mine', attempt: 2 });
    expect(e.attempt).toBe(2);
    h.ended('mine', { ok: true, durationMs: 1, payload: null, requestId: 'lambdas-own' }, { reportedFailedFrom: 6 });
    expect(e).toMatchObject({ outcome: 'partial', reportedFailedFrom: 6, requestId: 'lambdas-own', attempt: 2 });
    // serverless-offline answers with no request id: the invocation keeps its own.
    const offline = h.start({ functionName: 'a', records: [record(7)], source, requestId: 'ours' });
    h.ended('ours', { ok: true, durationMs: 1, payload: null, requestId: '' }, { malformedResponse: 'not a batch response' });
    expect(offline).toMatchObject({ outcome: 'failed', error: 'not a batch response', requestId: 'ours' });
  });

  it('filters by partition, outcome and key, and tells subscribers of each change', () => {
    const h = new InvocationHistory();
    const seen: string[] = [];
    const off = h.subscribe((s) => seen.push(`${s.id}:${s.outcome}`)); // the entry itself: its state when told
    const a = h.start({ functionName: 'a', records: [record(0, 'v', 'alpha')], source, requestId: '1' });
    const b = h.start({ functionName: 'a', records: [{ ...record(1, 'v', 'beta'), partition: 2 }], source, requestId: '2' });
    h.end(a, { ok: false, durationMs: 1, error: { kind: 'error', name: 'Error', message: 'boom\nline two' } });
    off();
    h.end(b, { ok: true, durationMs: 1, payload: null });
    expect(seen).toEqual([`${a.id}:running`, `${b.id}:running`, `${a.id}:failed`]);
    expect(h.list({ outcome: 'failed' }).map((e) => e.id)).toEqual([a.id]);
    expect(h.list({ partition: 2 }).map((e) => e.id)).toEqual([b.id]);
    expect(h.list({ key: 'alp' }).map((e) => e.id)).toEqual([a.id]);
    expect(h.list({ key: ' ALP ' }).map((e) => e.id)).toEqual([a.id]); // as the page's own filter: trimmed, any case
    expect(a.error).toBe('Error: boom');
  });

  it('does not keep a response larger than its bound', () => {
    const h = new InvocationHistory({ responseBytes: 10 });
    const e = h.start({ functionName: 'a', records: [record(0)], source, requestId: '1' });
    h.end(e, { ok: true, durationMs: 1, payload: { big: 'x'.repeat(100) } });
    expect(e.response).toMatch(/keeps at most 10/);
  });

  it('bounds an error\'s message and stack, and keeps what handlers said within its own budget, oldest dropped first', () => {
    const h = new InvocationHistory({ errorBytes: 100, detailBytes: 1_000 });
    const e = h.start({ functionName: 'a', records: [record(0)], source, requestId: '1' });
    h.end(e, { ok: false, durationMs: 1, error: { kind: 'error', name: 'Error', message: 'm'.repeat(10_000), stack: 's'.repeat(10_000) } });
    expect(e.errorDetail!.message.length).toBeLessThan(200);
    expect(e.errorDetail!.stack).toMatch(/^s{100}… \(9900 more characters not kept\)$/);
    const later = [1, 2, 3].map((i) => {
      const x = h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}` });
      for (let n = 0; n < 5; n++) h.log(`r${i}`, 'info', 'x'.repeat(80));
      return x;
    });
    expect(e.detailDropped).toMatch(/dropped to keep what handlers said within/);
    expect(e.error).toMatch(/^Error: m+/); // the summary's line stays
    expect(later.at(-1)!.logs).toHaveLength(5);
  });

  it('finds an invocation by any of its records\' keys, not only the five a summary shows', () => {
    const h = new InvocationHistory();
    const e = h.start({ functionName: 'a', records: Array.from({ length: 10 }, (_, i) => record(i, 'v', `order-${i}`)), source, requestId: '1' });
    expect(summaryOf(e).keys).toHaveLength(5);
    expect(h.list({ key: 'order-7' }).map((x) => x.id)).toEqual([e.id]);
  });

  it('holds its own copy of the records it keeps, not the fetch response their bytes are views into', () => {
    const response = Buffer.alloc(10 * 1024 * 1024, 1);
    const view = (at: number, n: number) => response.subarray(at, at + n);
    const fetched: KafkaRecord = { ...record(7), key: view(0, 3), value: view(100, 256), headers: [['h', view(500, 4)], ['none', null]] };
    const h = new InvocationHistory();
    const e = h.start({ functionName: 'a', records: [fetched], source, requestId: '1' });
    expect(e.records![0]!.value!.buffer).toBe(response.buffer); // running, they are the poller's
    h.end(e, { ok: true, durationMs: 1 });
    expect(e.records).toBeUndefined(); // ended: the history's own copy, packed
    const held = eventOf(e)![0]!;
    for (const b of [held.key!, held.value!, held.headers[0]![1]!]) expect(b.buffer.byteLength).toBeLessThan(1024);
    expect([held.key, held.value, held.headers]).toEqual([fetched.key, fetched.value, fetched.headers]);
    response.fill(2); // what the caller's buffer becomes later does not reach the history
    expect(held.value!.every((x) => x === 1)).toBe(true);
    expect(fetched.value!.every((x) => x === 2)).toBe(true);
  });

  it('a replay pushed out of its ring while it runs keeps its event for its caller, outside the budget', () => {
    const h = new InvocationHistory({ size: 2, eventBytes: 10_000 });
    const replay = h.start({ functionName: 'a', records: [record(0, 'r'.repeat(3_000))], source, requestId: 'replay', replay: true });
    const failed = h.start({ functionName: 'a', records: [record(1, 'f'.repeat(3_000))], source, requestId: 'failed' });
    h.end(failed, { ok: false, durationMs: 1, error: { kind: 'error', name: 'Error', message: 'no' } });
    h.start({ functionName: 'a', records: [record(2)], source, requestId: 'later' }); // pushes the replay out
    h.end(replay, { ok: true, durationMs: 1, payload: { big: 'x'.repeat(9_000) } });
    expect(eventOf(replay)).toHaveLength(1);
    expect(eventOf(failed)).toHaveLength(1); // a visible invocation's event was not given up for it
    expect(h.usage().eventBytes).toBe(failed.bytes);
    expect(h.list().map((e) => e.requestId)).toEqual(['later', 'failed']);
  });

  it('lets go of the records of an invocation pushed out of its ring, except a replay, whose caller shows its event', () => {
    const h = new InvocationHistory({ size: 1 });
    const replay = h.start({ functionName: 'a', records: [record(0)], source, requestId: 'r0', replay: true });
    const first = h.start({ functionName: 'a', records: [record(1)], source, requestId: 'r1' });
    h.start({ functionName: 'a', records: [record(2)], source, requestId: 'r2' });
    expect(eventOf(first)).toBeUndefined();
    expect(eventOf(replay)).toHaveLength(1);
  });

  it('past 10 invocations a second of a function (the default), with a page open, keeps the records of the first 10 and of every failure', () => {
    let now = 5_000;
    const h = new InvocationHistory({}, () => now);
    h.subscribe(() => undefined); // a page open: the first 50 a second listed
    const run = (i: number, ok: boolean, answer: { reportedFailedFrom?: number; malformedResponse?: string } = {}) => {
      const e = h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}` });
      h.ended(`r${i}`, { ok, durationMs: 1 }, answer); // with the poller's reading of the answer
      return e;
    };
    const first = Array.from({ length: 10 }, (_, i) => run(i, true));
    const over = run(50, true);
    const failed = run(51, false);
    expect(first.every((e) => eventOf(e)?.length === 1)).toBe(true);
    expect(eventOf(over)).toBeUndefined();
    expect(over.eventDropped).toMatch(/more than 10 invocations \(or 256 KiB of records\) a second/);
    expect(eventOf(failed)).toHaveLength(1);
    // A successful invocation whose answer the poller read as failures is a failure here too.
    const partial = run(60, true, { reportedFailedFrom: 60 });
    const unreadable = run(61, true, { malformedResponse: 'itemIdentifier "x" is not an offset of the chunk' });
    expect([partial.outcome, unreadable.outcome]).toEqual(['partial', 'failed']);
    expect([eventOf(partial), eventOf(unreadable)].map((r) => r?.length)).toEqual([1, 1]);
    expect(h.usage().eventBytes).toBe([...first, failed, partial, unreadable].reduce((n, e) => n + e.bytes, 0)); // the dropped one is out of the budget
    now += 1_000; // a new second
    expect(eventOf(run(52, true))).toHaveLength(1);
  });

  it('past 10 invocations a second of a function, with no page open, lists only the first 10 and every failure, with their records, lines and answer', () => {
    let now = 5_000;
    const h = new InvocationHistory({}, () => now);
    const run = (i: number, ok: boolean, answer: { reportedFailedFrom?: number; malformedResponse?: string } = {}) => {
      const e = h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}`, attempt: 2 });
      h.log(`r${i}`, 'info', `line of ${i}`);
      h.end(e, ok ? { ok, durationMs: 1, payload: { batchItemFailures: [{ itemIdentifier: `${i}` }] } } : { ok, durationMs: 1, error: { kind: 'error', name: 'Error', message: `boom ${i}` } }, answer);
      return e;
    };
    for (let i = 0; i < 10; i++) run(i, true);
    run(50, true);
    run(51, false);
    run(60, true, { reportedFailedFrom: 60 });
    run(61, true, { malformedResponse: 'itemIdentifier "x" is not an offset of the chunk' });
    run(62, true);
    const listed = h.list();
    expect(listed.map((e) => e.firstOffset).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 51, 60, 61]);
    expect(h.unlistedCounts()).toEqual({ a: 2 });
    const [failed, partial, unreadable] = [51, 60, 61].map((o) => listed.find((e) => e.firstOffset === o)!) as [Invocation, Invocation, Invocation];
    expect([failed.outcome, partial.outcome, unreadable.outcome]).toEqual(['failed', 'partial', 'failed']);
    for (const [e, o] of [[failed, 51], [partial, 60], [unreadable, 61]] as const) {
      expect(eventOf(e)?.map((r) => r.offset)).toEqual([o]);
      expect(e.logs.map((l) => l.text)).toEqual([`line of ${o}`]);
      expect(e.attempt).toBe(2);
      expect(summaryOf(e)).not.toHaveProperty('quiet');
    }
    expect(failed.errorDetail?.message).toBe('boom 51');
    expect(partial.response).toEqual({ batchItemFailures: [{ itemIdentifier: '60' }] });
    expect(h.usage().eventBytes).toBe(listed.reduce((n, e) => n + e.bytes, 0));
    // A page opens: the first 50 a second are listed (this is the 16th this second).
    const off = h.subscribe(() => undefined);
    const seen = run(63, true);
    expect(h.list({ limit: 1 })[0]!.id).toBe(seen.id);
    off();
    now += 1_000; // a new second: its first 10 listed again
    const next = run(64, true);
    expect(h.list({ limit: 1 })[0]!.id).toBe(next.id);
  });

  it('with a page open, past 50 invocations a second of a function (the default), lists only the failures and replays, and counts the other successes', () => {
    let now = 5_000;
    const h = new InvocationHistory({}, () => now);
    const told: string[] = [];
    h.subscribe((e) => told.push(e.id)); // a page open
    const run = (i: number, ok: boolean, replay = false) => {
      const e = h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}`, replay });
      h.end(e, ok ? { ok, durationMs: 1 } : { ok, durationMs: 1, error: { kind: 'error', name: 'Error', message: `boom ${i}` } });
      return e;
    };
    for (let i = 0; i < 50; i++) run(i, true);
    const running = h.start({ functionName: 'a', records: [record(99)], source, requestId: 'r99' }); // the 51st: not listed while it runs
    const over = run(100, true);
    const failed = run(101, false);
    const replay = run(102, true, true);
    expect(h.list({ limit: 1000 }).map((e) => e.firstOffset).sort((a, b) => a - b)).toEqual([...Array.from({ length: 50 }, (_, i) => i), 101, 102]);
    expect([running.id, over.id].some((id) => told.includes(id))).toBe(false);
    expect(eventOf(failed)?.map((r) => r.offset)).toEqual([101]);
    h.end(running, { ok: true, durationMs: 1 });
    expect(h.unlistedCounts()).toEqual({ a: 2 });
    now += 1_000; // a new second: its first 50 listed again
    const next = run(103, true);
    expect(h.list({ limit: 1 })[0]!.id).toBe(next.id);
  });

  it('lists the invocations running quiet when a page opens, and shows how each ends', () => {
    const h = new InvocationHistory({}, () => 5_000);
    for (let i = 0; i < 10; i++) h.ended(h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}` }).requestId!, { ok: true, durationMs: 1 });
    const slow = h.start({ functionName: 'a', records: [record(10)], source, requestId: 'slow' }); // past the rate, no page: quiet
    h.log('slow', 'info', 'still going');
    expect(h.list().map((e) => e.id)).not.toContain(slow.id);
    const told: string[] = [];
    h.subscribe((e) => told.push(`${e.id}:${e.outcome}`));
    expect(h.list({ limit: 1 })[0]).toMatchObject({ id: slow.id, outcome: 'running' });
    h.ended('slow', { ok: true, durationMs: 9_000 });
    expect(told).toEqual([`${slow.id}:running`, `${slow.id}:ok`]);
    expect(slow.logs.map((l) => l.text)).toEqual(['still going']);
    expect(eventOf(slow)).toBeUndefined(); // past the rate, it succeeded: its summary, not its records
    expect(h.unlistedCounts()).toEqual({});
  });

  it('keeps the lines of invocations running quiet within the detail budget, listed ones giving theirs up first', () => {
    const h = new InvocationHistory({ detailBytes: 10_000 }, () => 5_000);
    const listed = h.start({ functionName: 'a', records: [record(0)], source, requestId: 'listed' });
    h.log('listed', 'info', 'x'.repeat(3_000));
    for (let i = 1; i < 10; i++) h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}` });
    const quiet = Array.from({ length: 20 }, (_, i) => h.start({ functionName: 'a', records: [record(100 + i)], source, requestId: `q${i}` }));
    for (const q of quiet) h.log(q.requestId, 'info', 'y'.repeat(1_000));
    expect(listed.logs).toEqual([]); // the listed one's lines went first
    const kept = quiet.filter((q) => q.logs.length > 0);
    expect(kept.length).toBeLessThanOrEqual(9); // 10,000 bytes hold 9 lines of 1,032
    expect(quiet.filter((q) => q.logsTruncated)).toHaveLength(20 - kept.length);
    // A quiet success gives its bytes back: new lines are kept again.
    for (const q of kept) h.ended(q.requestId!, { ok: true, durationMs: 1 });
    const later = h.start({ functionName: 'a', records: [record(200)], source, requestId: 'later' });
    h.log('later', 'info', 'z'.repeat(1_000));
    expect(later.logs).toHaveLength(1);
  });

  it('keeps the events of a second\'s successes within eventBytesPerSecond, the first always, every failure whatever its size', () => {
    let now = 5_000;
    const h = new InvocationHistory({ eventBytesPerSecond: 10_000 }, () => now);
    const big = (offset: number): KafkaRecord => ({ ...record(offset), value: Buffer.alloc(6_000) });
    const run = (i: number, ok: boolean) => {
      const e = h.start({ functionName: 'a', records: [big(i)], source, requestId: `r${i}` });
      h.ended(`r${i}`, ok ? { ok, durationMs: 1 } : { ok, durationMs: 1, error: { kind: 'error', name: 'Error', message: 'boom' } });
      return e;
    };
    const first = run(0, true);
    const second = run(1, true); // 6,064 more: past 10,000 this second
    const failed = run(2, false);
    expect(eventOf(first)).toHaveLength(1);
    expect(eventOf(second)).toBeUndefined();
    expect(second.eventDropped).toMatch(/more than 10 invocations \(or 10 KiB of records\) a second/);
    expect(eventOf(failed)).toHaveLength(1);
    now += 1_000;
    expect(eventOf(run(3, true))).toHaveLength(1);
  });
});

