/**
 * A handler that throws (or calls back with) a value that is not an Error, through the real local
 * invoker and its worker. Lambda's runtime answers such a value as a failed invocation with its
 * string form; the worker used to JSON.stringify it unguarded, so a BigInt or an object with a
 * cycle threw out of the runtime's catch and ended the worker: a crash ("Runtime exited"), a cold
 * start for the next invocation.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { localService, oneRecord } from '../../tests/support/local-service.ts';

const source =
  [
    'export const bigint = async () => { throw 5n; };',
    'export const cycle = async () => { const o: Record<string, unknown> = { order: 9 }; o.self = o; throw o; };',
    'export const callback = (_event: unknown, _context: unknown, done: (e: unknown) => void) => done(7n);',
    "export const plain = async () => { throw { code: 'E_ORDER' }; };",
    // A revoked Proxy throws at `instanceof Error`; an Error whose message getter throws, at its read.
    'export const revoked = async () => { const r = Proxy.revocable({}, {}); r.revoke(); throw r.proxy; };',
    "export const getter = async () => { throw new (class extends Error { get message(): string { throw new Error('unreadable'); } })(); };",
  ].join('\n');
const names = ['bigint', 'cycle', 'callback', 'plain', 'revoked', 'getter'];
const service = localService({ throws: source }, names.map((name) => ({ name, handler: `functions/throws.${name}` })));
const { invoker } = service;
afterAll(() => service.close());

describe('a handler that throws a value that is not an Error', () => {
  it.each([
    ['bigint', '5'],
    ['cycle', '[object Object]'],
    ['callback', '7'],
    ['plain', '{"code":"E_ORDER"}'],
    ['revoked', 'a thrown object'],
    ['getter', '{}'],
  ])('%s: fails the invocation with its string form, the worker still up', async (name, message) => {
    await invoker.prepare();
    const result = await invoker.invoke(oneRecord(name));
    expect(result).toMatchObject({ ok: false, error: { kind: 'error', name: 'Error', message } });
  });
});
