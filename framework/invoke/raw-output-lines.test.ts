/**
 * What a handler writes past console (process.stdout.write: a logger's stream, a progress line),
 * through the real local invoker: each line is handed to the tap (the console's history) with the
 * request id of the invocation that wrote it. It used to travel the worker thread's own stdout,
 * which reaches the poller's thread on its own schedule: after the invocation's result, so on no
 * invocation, or on the next one of the same worker. (A line a handler's timer writes after its
 * invocation ended is, as on Lambda, on whichever invocation runs when it is written.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalInvoker } from './local.ts';
import type { InvokeRequest } from './types.ts';

const dir = mkdtempSync(join(tmpdir(), 'sluice-raw-output-'));
mkdirSync(join(dir, 'functions'));
writeFileSync(
  join(dir, 'functions', 'writes.ts'),
  [
    'export const handler = async (event: { records: Record<string, Array<{ offset: number }>> }) => {',
    '  const offset = Object.values(event.records)[0]![0]!.offset;',
    '  process.stdout.write(`out ${offset}\\n`);',
    '  process.stderr.write(`err ${offset} `);',
    '  process.stderr.write(Buffer.from(`é${offset}\\n`).subarray(0, 1));',
    '  process.stderr.write(Buffer.from(`é${offset}\\n`).subarray(1));',
    '  process.stdout.write(`partial ${offset}`);',
    '};',
  ].join('\n'),
);
const seen: Array<[string | undefined, string, string]> = [];
const printed: string[] = [];
const logger = { error() {}, warn() {}, info() {}, debug() {}, child: () => logger, level: 'warn' } as never;
const invoker = createLocalInvoker({
  rootDir: dir, service: 's', stage: 'dev', region: 'eu-west-1', logger, output: (l) => printed.push(l), watch: false,
  functions: [{ functionName: 'writes', handler: 'functions/writes.handler', memorySizeMb: 128, timeoutMs: 5_000, environment: {} }],
  logTap: (requestId, level, text) => seen.push([requestId, level, text]),
});
afterAll(async () => {
  await invoker.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (offset: number, requestId: string) => ({
  functionName: 'writes', timeoutMs: 5_000, attempt: 1, requestId, source: { kind: 'self-managed', bootstrapServers: ['127.0.0.1:9092'] },
  records: [{ topic: 'orders', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('{}'), headers: [] }],
}) as unknown as InvokeRequest;

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
});
