import { expect, it } from 'vitest';
import type { InvocationSummary } from '../../api-types.ts';
import { applyFilter, MAX_INVOCATIONS, withKeyMatches } from './invocations.ts';

const inv = (id: number, startedAt: number, fn: string, keys: string[], outcome: InvocationSummary['outcome'] = 'ok'): InvocationSummary => ({
  id: String(id), function: fn, topic: 't', partition: 0, firstOffset: id, lastOffset: id + 6, count: 7, attempt: 1, startedAt, outcome, requestId: `r${id}`, keys,
});

it('shows an invocation the server matched on a key past the five a row carries, also one older than the page keeps', () => {
  // The page holds the 500 newest (of a busy function); the server still holds an older one of a quiet function.
  const page = Array.from({ length: MAX_INVOCATIONS }, (_, i) => inv(1_000 + i, 100_000 + i, 'busy', ['b']));
  const matches = [inv(5, 1_000, 'quiet', ['many-1', 'many-2', 'many-3', 'many-4', 'many-5'])];
  const filter = { function: '', partition: '', outcome: '' as const, key: 'many-7' };
  expect(applyFilter(withKeyMatches(page, matches), filter, new Set(matches.map((m) => m.id))).map((s) => s.id)).toEqual(['5']);
});

it("keeps the page's own, fresher, copy of an invocation the server also matched", () => {
  const page = [inv(7, 10, 'f', ['a'], 'ok')];
  const matches = [inv(7, 10, 'f', ['a'], 'running')];
  expect(withKeyMatches(page, matches)).toBe(page);
});
