/**
 * What a handler writes past console (process.stdout.write: a logger's stream, a progress line),
 * through the real local invoker: each line is handed to the tap (the console's history) with the
 * request id of the invocation that wrote it. It used to travel the worker thread's own stdout,
 * which reaches the poller's thread on its own schedule: after the invocation's result, so on no
 * invocation, or on the next one of the same worker. (A line a handler's timer writes after its
 * invocation ended is, as on Lambda, on whichever invocation runs when it is written.)
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { localService, oneRecord } from '../../tests/support/local-service.ts';

const writes =
  [
    'export const handler = async (event: { records: Record<string, Array<{ offset: number }>> }) => {',
    '  const offset = Object.values(event.records)[0]![0]!.offset;',
    '  process.stdout.write(`out ${offset}\\n`);',
    '  process.stderr.write(`err ${offset} `);',
    '  process.stderr.write(Buffer.from(`é${offset}\\n`).subarray(0, 1));',
    '  process.stderr.write(Buffer.from(`é${offset}\\n`).subarray(1));',
    '  process.stdout.write(`partial ${offset}`);',
    '};',
    // A progress counter rewriting itself: 100,000 writes, no newline (each write re-split the whole line so far: minutes).
    'export const progress = async () => {',
    '  for (let i = 1; i <= 100_000; i++) process.stdout.write(`\\r${i} done`);',
    '};',
    // A character written in two halves as hex, one as base64; bytes of a character cut by a string, as a byte stream reads them.
    "export const encodings = async () => { process.stdout.write('c3', 'hex'); process.stdout.write('a90a', 'hex'); process.stdout.write('w6k=', 'base64'); process.stdout.write('\\n'); process.stdout.write(Buffer.from([0xc3])); process.stdout.write('x\\n'); process.stdout.write(Buffer.from([0xa9, 0x0a])); };",
    // A write's callback, told of no error as a stream tells it: null (the first argument, given).
    "export const callback = () => new Promise((resolve) => process.stdout.write('x\\n', (...args: unknown[]) => resolve({ count: args.length, error: args[0] === null ? 'null' : typeof args[0] })));",
    // The last words of a handler that never answers, or whose timer throws: no newline, then no end of its own.
    "export const hangs = async () => { process.stdout.write('connecting to the database... '); await new Promise(() => {}); };",
    "export const crashes = async () => { process.stderr.write('retrying in 1 s... '); await new Promise(() => setTimeout(() => { throw new Error('boom'); }, 10)); };",
  ].join('\n');
// A module that puts a process.stdout.write of its own in place as it loads (a capture, a prefix), and silences stderr.
const captures =
  [
    'const captured: string[] = [];',
    'const original = process.stdout.write.bind(process.stdout);',
    'process.stdout.write = ((chunk: string, ...rest: never[]) => (captured.push(String(chunk)), original(`[captured] ${chunk}` as never, ...rest))) as typeof process.stdout.write;',
    'process.stderr.write = (() => true) as typeof process.stderr.write;',
    "export const handler = async () => { process.stdout.write('hello\\n'); process.stderr.write('noise\\n'); return captured; };",
  ].join('\n');
const seen: Array<[string | undefined, string, string]> = [];
const printed: string[] = [];
const service = localService(
  { writes, captures },
  [
    { name: 'writes', handler: 'functions/writes.handler' },
    { name: 'progress', handler: 'functions/writes.progress', timeoutMs: 25_000 },
    { name: 'hangs', handler: 'functions/writes.hangs', timeoutMs: 1_000 },
    { name: 'crashes', handler: 'functions/writes.crashes' },
    { name: 'captures', handler: 'functions/captures.handler' },
    { name: 'encodings', handler: 'functions/writes.encodings' },
    { name: 'callback', handler: 'functions/writes.callback' },
  ],
  { output: (l) => printed.push(l), logTap: (requestId, level, text) => seen.push([requestId, level, text]) },
);
const { invoker } = service;
afterAll(() => service.close());

const request = (offset: number, requestId: string, functionName = 'writes', timeoutMs = 5_000) => oneRecord(functionName, { offset, requestId, timeoutMs });

describe("a handler's writes past console", () => {
  it('are lines of the invocation that wrote them, a partial line ended with it, before its result', async () => {
    await invoker.prepare();
    for (let offset = 0; offset < 20; offset++) {
      const at = seen.length;
      const result = await invoker.invoke(request(offset, `req-${offset}`));
      expect(result.ok).toBe(true);
      // Told before the result resolved: nothing of this invocation arrives later.
      expect(seen.slice(at)).toEqual([
        [`req-${offset}`, 'info', `out ${offset}`],
        [`req-${offset}`, 'error', `err ${offset} é${offset}`],
        [`req-${offset}`, 'info', `partial ${offset}`],
      ]);
    }
    expect(printed.slice(0, 3)).toEqual(['[writes] out 0', '[writes] err 0 é0', '[writes] partial 0']);
  });

  it("keep a line written in 100,000 pieces without a newline (a progress counter), in the invocation's time", async () => {
    await invoker.prepare();
    const at = seen.length;
    const result = await invoker.invoke(request(0, 'req-progress', 'progress', 25_000));
    expect(result.ok).toBe(true);
    const lines = seen.slice(at);
    expect(lines).toHaveLength(1);
    expect(lines[0]![0]).toBe('req-progress');
    expect(lines[0]![2].split('\r').slice(1, 3)).toEqual(['1 done', '2 done']);
    expect(lines[0]![2].endsWith('\r100000 done')).toBe(true);
  });

  it('of a handler that times out or whose worker dies keep their unended last line (the worker can end it no more)', async () => {
    await invoker.prepare();
    const hung = await invoker.invoke(request(0, 'req-hangs', 'hangs', 1_000));
    expect(hung).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(seen).toContainEqual(['req-hangs', 'info', 'connecting to the database... ']);
    expect(printed).toContain('[hangs] connecting to the database... ');
    const crashed = await invoker.invoke(request(0, 'req-crashes', 'crashes'));
    expect(crashed).toMatchObject({ ok: false, error: { kind: 'crash', message: 'Runtime exited: boom' } });
    await vi.waitFor(() => expect(printed).toContain('[crashes] retrying in 1 s... '));
  });

  it("go through a process.stdout.write the handler's module put in place, which stays (and a silenced stream stays silent)", async () => {
    await invoker.prepare();
    const at = seen.length;
    const result = await invoker.invoke(request(0, 'req-captures', 'captures'));
    expect(result).toMatchObject({ ok: true, payload: ['hello\n'] });
    expect(seen.slice(at)).toEqual([['req-captures', 'info', '[captured] hello']]);
  });

  it('are the text of the bytes written, whatever encoding each write named and however a character was cut', async () => {
    await invoker.prepare();
    const at = seen.length;
    expect(await invoker.invoke(request(0, 'req-encodings', 'encodings'))).toMatchObject({ ok: true });
    expect(seen.slice(at).map(([, , text]) => text)).toEqual(['é', 'é', '\ufffdx', '\ufffd']);
  });

  it("call a write's callback as a stream does, with null for its error", async () => {
    await invoker.prepare();
    expect(await invoker.invoke(request(0, 'req-callback', 'callback'))).toMatchObject({ ok: true, payload: { count: 1, error: 'null' } });
  });
});
