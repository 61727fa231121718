/**
 * Review of bench/scenarios/console-pairs.ts (dec1f21): BENCH_CONSOLE_KINDS naming a kind of pair
 * that does not exist (a typo) ran no pair at all and the scenario reported NaN figures as targets
 * not met. It is refused before any pair runs, naming the kinds there are.
 */
import type { Browser } from 'playwright-core';
import { afterEach, expect, it, vi } from 'vitest';
import type { BenchContext } from '../../bench/lib/types.ts';
import { sideBySide } from '../../bench/scenarios/console-pairs.ts';

afterEach(() => vi.unstubAllEnvs());

it('refuses a kind of pair it does not know, before running any', async () => {
  vi.stubEnv('BENCH_CONSOLE_KINDS', 'same,straem');
  const ctx = { log: () => undefined } as unknown as BenchContext;
  await expect(sideBySide(ctx, 't', 1000, 100, 1, {} as Browser)).rejects.toThrow(/BENCH_CONSOLE_KINDS names straem; the kinds of pair here are console, same, page, stream/);
});
