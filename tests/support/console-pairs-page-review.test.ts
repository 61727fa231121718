/**
 * Review of bench/scenarios/console-pairs.ts (fba2a41): a page pair's cleanup, with the forked
 * pollers replaced by simulated ones (as in console-pairs-window-review.test.ts) and Chromium by a
 * page whose close fails (a browser that went wrong underneath). Every pair's pollers must stop on
 * every path: a poller left running keeps draining beside the next pairs, its CPU on theirs.
 */
import type { Kafka } from 'kafkajs';
import type { Browser } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';

const TOTAL = 300_000;
const live = new Set<unknown>();

vi.mock('../../bench/lib/child.ts', () => ({
  PollerChild: class {
    records = 0;
    consoleUrl = 'http://127.0.0.1:1/';
    readonly ready = Promise.resolve();
    private readonly t0 = Date.now();
    private readonly timer: NodeJS.Timeout;
    constructor() {
      this.timer = setInterval(() => (this.records = this.exact()), 250);
      live.add(this);
    }
    exact(): number {
      return Math.min(TOTAL, Math.floor(((Date.now() - this.t0) / 1000) * 270_000));
    }
    async mark() {
      const records = this.exact();
      return { records, cpuMicros: records * 4, gcMs: 0 };
    }
    async stop() {
      clearInterval(this.timer);
      live.delete(this);
    }
  },
}));

const { sideBySide } = await import('../../bench/scenarios/console-pairs.ts');
const ctx = { brokers: ['b:9092'], kafka: {} as Kafka, quick: true, log: () => undefined };

describe('a page pair of the console scenario', () => {
  it('stops both pollers even when its page does not close, and says why the pair failed', async () => {
    const page = {
      goto: async () => undefined,
      getByTestId: () => ({ filter: () => ({ waitFor: async () => undefined }) }),
      close: async () => {
        throw new Error('page.close: the browser went away');
      },
    };
    const browser = { newPage: async () => page } as unknown as Browser;
    // Pairs run console, same, then page: the page pair is the third.
    await expect(sideBySide(ctx, 't', TOTAL, 1000, 1, browser)).rejects.toThrow(/the browser went away/);
    expect(live.size).toBe(0);
  }, 30_000);
});
