/**
 * Review of bench/scenarios/console-pairs.ts (d6d7fe5): the side-by-side window, with the forked
 * pollers replaced by simulated ones that behave as bench/lib/poller-process.ts does (records done
 * reported every 250 ms as 'progress', 'mark' read exactly at the instant asked).
 */
import type { Kafka } from 'kafkajs';
import { describe, expect, it, vi } from 'vitest';

/** Per poller kind: records a second, and when it starts consuming (ms after it is forked). */
const sim = { baseline: { rate: 270_000, delayMs: 0 }, console: { rate: 256_500, delayMs: 0 } };
const live = new Set<unknown>();

vi.mock('../../bench/lib/child.ts', () => ({
  PollerChild: class {
    records = 0;
    readonly ready = Promise.resolve();
    private readonly t0 = Date.now();
    private readonly timer: NodeJS.Timeout;
    private readonly rate: number;
    private readonly delayMs: number;
    constructor(private readonly o: { console?: boolean; records?: number }) {
      const s = o.console ? sim.console : sim.baseline;
      this.rate = s.rate;
      this.delayMs = s.delayMs;
      this.timer = setInterval(() => (this.records = this.exact()), 250); // poller-process.ts: progress every 250 ms
      live.add(this);
    }
    exact(): number {
      return Math.min(TOTAL, Math.max(0, Math.floor(((Date.now() - this.t0 - this.delayMs) / 1000) * this.rate)));
    }
    async mark() {
      const records = this.exact();
      return { records, cpuMicros: records * 4, gcMs: 0 }; // 4 µs a record: the same for both, only throughput differs
    }
    async stop() {
      clearInterval(this.timer);
      live.delete(this);
    }
  },
}));

const TOTAL = 300_000; // the console scenario's backlog in quick mode
const { sideBySide } = await import('../../bench/scenarios/console-pairs.ts');
const ctx = { brokers: ['b:9092'], kafka: {} as Kafka, quick: true, log: () => undefined };

describe('the console scenario, side by side (quick: 300,000 records)', () => {
  it('never reads an empty window (NaN): pollers that did not drain side by side run again, and three such pairs are an error that says why', async () => {
    sim.baseline = { rate: 270_000, delayMs: 0 };
    sim.console = { rate: 256_500, delayMs: 1_300 }; // its group joined 1.3 s later: the baseline is done by then
    await expect(sideBySide(ctx, 't', TOTAL, 1000, 1)).rejects.toThrow(/did not drain side by side .* make the backlog larger/);
    expect(live.size).toBe(0); // every pair's pollers stopped
  }, 30_000);

  it('reads pollers that drain together: finite figures, the slower one\'s cost', async () => {
    sim.baseline = { rate: 270_000, delayMs: 0 };
    sim.console = { rate: 256_500, delayMs: 0 };
    const r = await sideBySide(ctx, 't', TOTAL, 1000, 1);
    expect(live.size).toBe(0);
    expect(r.measured[0]!.throughputCost).toBeGreaterThan(0.02); // 5% slower, read through 250 ms progress reports
    expect(r.measured[0]!.throughputCost).toBeLessThan(0.08);
    expect(r.measured[0]!.cpuCost).toBeCloseTo(0, 6); // the same CPU per record
  }, 30_000);
});
