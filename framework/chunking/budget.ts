/**
 * Pure: the poll-interval budget (DESIGN §2.4). The member must come back to the group
 * protocol within `maxPollIntervalMs` (sent as the rebalance timeout) of the fetch that gave
 * it its records. A chunk may start only if its worst case, the function timeout, still
 * ends inside that interval with a safety margin to spare for the commit and the rejoin.
 * The interval must also leave a start window: the time after a fetch in which a chunk may still
 * start (the fetch is decoded and filtered first, and a partition may wait for a free slot). A
 * function timeout that filled the whole interval less the margin left a window of 0 ms: no fetch
 * was ever recent enough, and the member refetched the same records until one happened to be.
 */

/** What stays reserved at the end of the interval: 10% of it, at least one second. */
export function safetyMarginMs(maxPollIntervalMs: number): number {
  return Math.max(1_000, Math.round(maxPollIntervalMs * 0.1));
}

/** The least time after a fetch in which a chunk may still start: 5% of the interval, at least two seconds. */
export function startWindowMs(maxPollIntervalMs: number): number {
  return Math.max(2_000, Math.round(maxPollIntervalMs * 0.05));
}

/** The longest function timeout a given poll interval allows: what is left after the margin and the start window. */
export function maxTimeoutFor(maxPollIntervalMs: number): number {
  return maxPollIntervalMs - safetyMarginMs(maxPollIntervalMs) - startWindowMs(maxPollIntervalMs);
}

/** The smallest poll interval that fits a function timeout (what to tell a user to set). */
export function minPollIntervalFor(timeoutMs: number): number {
  // Solve interval - margin - window >= timeout, then step over their rounding (a step or two;
  // maxTimeoutFor never decreases as the interval grows).
  let interval = Math.max(timeoutMs + 3_000, Math.ceil(timeoutMs / 0.85));
  while (maxTimeoutFor(interval - 1) >= timeoutMs) interval--;
  while (maxTimeoutFor(interval) < timeoutMs) interval++;
  return interval;
}

export interface BudgetInput {
  /** When the records were fetched (epoch ms). */
  fetchedAt: number;
  now: number;
  timeoutMs: number;
  maxPollIntervalMs: number;
}

/** True if a chunk started `now` ends, at worst, inside the poll interval less the margin. */
export function chunkFitsBudget(b: BudgetInput): boolean {
  return b.now - b.fetchedAt + b.timeoutMs + safetyMarginMs(b.maxPollIntervalMs) <= b.maxPollIntervalMs;
}
