/**
 * How a handler answers, through the real local invoker and its worker, as Lambda's Node runtime
 * reads it (aws-lambda-nodejs-runtime-interface-client, CallbackContext.js): a callback's error is
 * anything but null or undefined, and context.done, succeed and fail answer the invocation. Sluice
 * read a falsy error (0, '') as success, and its context's done/succeed/fail did nothing, so a
 * handler answering through them returned nothing (two parameters) or hung to its timeout (three).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalInvoker } from './local.ts';
import type { InvokeRequest } from './types.ts';

const handlers: Record<string, string> = {
  zero: '(_e: unknown, _c: unknown, cb: (err: unknown, r?: unknown) => void) => cb(0)',
  empty: "(_e: unknown, _c: unknown, cb: (err: unknown, r?: unknown) => void) => cb('')",
  nullError: '(_e: unknown, _c: unknown, cb: (err: unknown, r?: unknown) => void) => cb(null, { n: 1 })',
  succeed: '(_e: unknown, c: { succeed(r: unknown): void }) => c.succeed({ n: 2 })',
  done: '(_e: unknown, c: { done(e: unknown, r: unknown): void }, _cb: unknown) => setTimeout(() => c.done(null, { n: 3 }), 10)',
  fail: '(_e: unknown, c: { fail(e?: unknown): void }, _cb: unknown) => { c.fail(); }',
  failWith: "(_e: unknown, c: { fail(e?: unknown): void }, _cb: unknown) => { c.fail(new Error('order 9 cannot be paid')); }",
  // Two parameters, answering later through the context: Lambda waits for it (or for an empty event loop).
  lateSucceed: '(_e: unknown, c: { succeed(r: unknown): void }) => { setTimeout(() => c.succeed({ n: 4 }), 10); }',
  lateFail: "(_e: unknown, c: { fail(e?: unknown): void }) => { setTimeout(() => c.fail(new Error('order 10 cannot be paid')), 10); }",
  // Three parameters, never answering, nothing left to do: Lambda answers null once its event loop is empty.
  forgets: '(_e: unknown, _c: unknown, _cb: unknown) => undefined',
  // Never answering, with a handle left open: the event loop never empties, so it runs to its timeout.
  keepsBusy: "(_e: unknown, _c: unknown) => { (globalThis as Record<string, unknown>).busy ??= setInterval(() => undefined, 1_000); }",
};
const dir = mkdtempSync(join(tmpdir(), 'sluice-answers-'));
mkdirSync(join(dir, 'functions'));
writeFileSync(join(dir, 'functions', 'answers.ts'), Object.entries(handlers).map(([name, body]) => `export const ${name} = ${body};`).join('\n'));
const logger = { error() {}, warn() {}, info() {}, debug() {}, child: () => logger, level: 'warn' } as never;
const invoker = createLocalInvoker({
  rootDir: dir, service: 's', stage: 'dev', region: 'eu-west-1', logger, output: () => undefined, watch: false,
  functions: Object.keys(handlers).map((n) => ({ functionName: n, handler: `functions/answers.${n}`, memorySizeMb: 128, timeoutMs: n === 'keepsBusy' ? 1_000 : 5_000, environment: {} })),
});
afterAll(async () => {
  await invoker.close();
  rmSync(dir, { recursive: true, force: true });
});

const invoke = async (functionName: string) => {
  await invoker.prepare();
  return invoker.invoke({
    functionName, timeoutMs: functionName === 'keepsBusy' ? 1_000 : 5_000, attempt: 1, source: { kind: 'self-managed', bootstrapServers: ['127.0.0.1:9092'] },
    records: [{ topic: 'orders', partition: 0, offset: 1, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('{}'), headers: [] }],
  } as unknown as InvokeRequest);
};

describe('a handler answering through its callback or its context', () => {
  it.each([
    ['zero', '0'],
    ['empty', ''],
    ['fail', 'handled'],
    ['failWith', 'order 9 cannot be paid'],
    ['lateFail', 'order 10 cannot be paid'],
  ])('%s fails the invocation', async (name, message) => {
    expect(await invoke(name)).toMatchObject({ ok: false, error: { kind: 'error', message } });
  });

  it.each([
    ['nullError', { n: 1 }],
    ['succeed', { n: 2 }],
    ['done', { n: 3 }],
    ['lateSucceed', { n: 4 }],
  ])('%s answers with its result', async (name, payload) => {
    expect(await invoke(name)).toMatchObject({ ok: true, payload });
  });

  it('one that never answers, with nothing left to do, answers null (each time, its worker still up)', async () => {
    expect(await invoke('forgets')).toMatchObject({ ok: true, payload: null });
    expect(await invoke('forgets')).toMatchObject({ ok: true, payload: null });
  });

  it('one that never answers and keeps a handle open runs to its timeout', async () => {
    expect(await invoke('keepsBusy')).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });
});
