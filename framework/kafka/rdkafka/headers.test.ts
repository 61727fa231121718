import { describe, expect, it } from 'vitest';
import { headerPairsOf } from './headers.ts';

/** What the binding's C++ does: an ordinary set, which for `__proto__` is the prototype's setter. */
function asTheBindingBuilds(name: string, value: Buffer): object {
  const h: Record<string, unknown> = {};
  h[name] = value;
  return h;
}

describe('headerPairsOf', () => {
  it('keeps a header named __proto__ the binding turned into the prototype, in its place', () => {
    const headers = [asTheBindingBuilds('constructor', Buffer.from('c')), asTheBindingBuilds('__proto__', Buffer.from('p')), asTheBindingBuilds('toString', Buffer.from('t'))];
    expect(headers[1]).toEqual({}); // what a naive read sees
    const pairs = headerPairsOf(headers);
    expect(pairs.map(([n, v]) => [n, String(v)])).toEqual([['constructor', 'c'], ['__proto__', 'p'], ['toString', 't']]);
  });

  it('keeps repeats and order, and reads no header out of an ordinary empty object', () => {
    const headers = [asTheBindingBuilds('a', Buffer.from('1')), asTheBindingBuilds('a', Buffer.from('2')), {}];
    expect(headerPairsOf(headers).map(([n, v]) => [n, String(v)])).toEqual([['a', '1'], ['a', '2']]);
    expect(headerPairsOf(undefined)).toEqual([]);
  });
});
