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

/** The longest `retryDelayMs` can be for `attempt`. */
export function retryCeilingMs(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(options.capMs, options.baseMs * 2 ** exponent);
}

/** `attempt` counts failures so far, from 1. */
export function retryDelayMs(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = retryCeilingMs(attempt, options);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
