/**
 * Pure: how long to wait before retrying a failed chunk. Exponential with "equal jitter"
 * (half fixed, half random) so retries of many partitions do not line up, capped so a
 * long outage is retried at a steady pace.
 */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 30_000 };

/** `attempt` counts failures so far, from 1. */
export function retryDelayMs(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
