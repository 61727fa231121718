/**
 * The hostile tier's figures per case: the worst event-loop block and the peak RSS while each kind
 * of input was in the poller. Every case runs in one process, so a sample is charged to the cases
 * of the batches handed over just before and just after it began: the engine reads (decodes,
 * decompresses) a batch before it hands it over and the poller works on it after, so the case that
 * cost a sample is among them. A figure is thus an upper bound for its case: a block is charged
 * to every case of its window.
 */

export interface Sample {
  /** When the block began (or the sample was taken), ms since the epoch. */
  at: number;
  blockedMs: number;
  rss: number;
}
export interface Handover {
  at: number;
  cases: readonly string[];
}
export interface CaseFigures {
  blockedMs: number;
  rss: number;
}

/** Each case's worst block and peak RSS over the samples charged to it (the cases of the handovers either side of each sample). */
export function perCase(samples: readonly Sample[], handovers: readonly Handover[]): Map<string, CaseFigures> {
  const sorted = [...handovers].sort((a, b) => a.at - b.at);
  const out = new Map<string, CaseFigures>();
  let next = 0;
  for (const s of [...samples].sort((a, b) => a.at - b.at)) {
    while (next < sorted.length && sorted[next]!.at <= s.at) next++;
    const charged = new Set([...(sorted[next - 1]?.cases ?? []), ...(sorted[next]?.cases ?? [])]);
    for (const c of charged) {
      const f = out.get(c) ?? { blockedMs: 0, rss: 0 };
      out.set(c, { blockedMs: Math.max(f.blockedMs, s.blockedMs), rss: Math.max(f.rss, s.rss) });
    }
  }
  return out;
}

/**
 * Samples this process every `everyMs`: how late each tick ran (a block of the event loop, charged
 * from when it began) and the RSS then. `end()` stops and returns the samples.
 */
export function sampleProcess(everyMs = 20): { end(): Sample[] } {
  const samples: Sample[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const blockedMs = Math.max(0, now - last - everyMs);
    last = now;
    samples.push({ at: Date.now() - blockedMs, blockedMs, rss: process.memoryUsage().rss });
  }, everyMs);
  return {
    end() {
      clearInterval(timer);
      return samples;
    },
  };
}

/** One line per case: `kind/codec: worst block N ms, peak RSS M MiB`. */
export function describeCases(figures: Map<string, CaseFigures>): string {
  return [...figures].sort(([a], [b]) => a.localeCompare(b)).map(([c, f]) => `${c}: worst block ${f.blockedMs.toFixed(0)} ms, peak RSS ${(f.rss / 1024 ** 2).toFixed(0)} MiB`).join('\n');
}
