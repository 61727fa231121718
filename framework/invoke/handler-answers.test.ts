/**
 * How a handler answers, through the real local invoker and its worker, as Lambda's Node runtime
 * reads it (aws-lambda-nodejs-runtime-interface-client, CallbackContext.js): a callback's error is
 * anything but null or undefined, and context.done, succeed and fail answer the invocation. Sluice
 * read a falsy error (0, '') as success, and its context's done/succeed/fail did nothing, so a
 * handler answering through them returned nothing (two parameters) or hung to its timeout (three).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { localService, oneRecord } from '../../tests/support/local-service.ts';

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
const timeoutOf = (name: string) => (name === 'keepsBusy' ? 1_000 : 5_000);
const service = localService(
  { answers: Object.entries(handlers).map(([name, body]) => `export const ${name} = ${body};`).join('\n') },
  Object.keys(handlers).map((name) => ({ name, handler: `functions/answers.${name}`, timeoutMs: timeoutOf(name) })),
);
const { invoker } = service;
afterAll(() => service.close());

const invoke = async (functionName: string) => {
  await invoker.prepare();
  return invoker.invoke(oneRecord(functionName, { timeoutMs: timeoutOf(functionName) }));
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
