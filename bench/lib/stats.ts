/** Pure helpers for figures: percentiles, rates, a least-squares slope. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** The median: the middle sample, or the mean of the two middle ones (not the lower, as percentile(…, 50) gives). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Spread {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export function spread(samples: readonly number[]): Spread {
  const mean = samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
  return { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: percentile(samples, 100), mean };
}

export const perSecond = (count: number, ms: number): number => (ms > 0 ? (count / ms) * 1000 : 0);

/** Slope of y over x by least squares (units of y per unit of x); 0 for fewer than two points. */
export function slope(points: ReadonlyArray<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export const round = (n: number, digits = 1): number => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until true; throws naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * How far the median of `measured` lies from the median of `same` (the instrument beside itself),
 * with a bootstrap interval: both samples drawn again with replacement `draws` times (a fixed seed,
 * so one run's figures read the same each time), the difference's `level` central share. An
 * interval that holds 0 is a difference the instrument cannot tell from none.
 */
export function medianDifference(measured: readonly number[], same: readonly number[], level = 0.9, draws = 4000): { difference: number; low: number; high: number } {
  const random = seeded(42);
  const resample = (xs: readonly number[]) => xs.map(() => xs[Math.floor(random() * xs.length)]!);
  const differences: number[] = [];
  for (let i = 0; i < draws; i++) differences.push(median(resample(measured)) - median(resample(same)));
  differences.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { difference: median(measured) - median(same), low: differences[Math.floor(tail * draws)]!, high: differences[Math.ceil((1 - tail) * draws) - 1]! };
}

/** A small deterministic generator in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
