/**
 * Is the poller's event loop responsive? Heartbeats, commits and the health endpoints all run
 * on it. Node's own delay histogram, read over a sliding pair of windows, so a stall is seen
 * for at least one full window after it ended.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LoopMonitor {
  /** The longest delay seen in the current and the previous window, in ms. */
  maxDelayMs(): number;
  stop(): void;
}

export function monitorEventLoop(windowMs = 5_000): LoopMonitor {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  let previousMaxMs = 0;
  const timer = setInterval(() => {
    previousMaxMs = histogram.max / 1e6;
    histogram.reset();
  }, windowMs);
  timer.unref();
  return {
    maxDelayMs: () => Math.max(previousMaxMs, histogram.max / 1e6),
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
