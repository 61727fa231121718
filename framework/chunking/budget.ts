/**
 * Pure: the poll-interval budget (DESIGN §2.4). The member must come back to the group
 * protocol within `maxPollIntervalMs` (sent as the rebalance timeout) of the fetch that gave
 * it its records. A chunk may start only if its worst case, the function timeout, still
 * ends inside that interval with a safety margin to spare for the commit and the rejoin.
 */

/** What stays reserved at the end of the interval: 10% of it, at least one second. */
export function safetyMarginMs(maxPollIntervalMs: number): number {
  return Math.max(1_000, Math.round(maxPollIntervalMs * 0.1));
}

/** The longest function timeout a given poll interval allows. */
export function maxTimeoutFor(maxPollIntervalMs: number): number {
  return maxPollIntervalMs - safetyMarginMs(maxPollIntervalMs);
}

/** The smallest poll interval that fits a function timeout (what to tell a user to set). */
export function minPollIntervalFor(timeoutMs: number): number {
  // Solve interval - margin >= timeout, then step over the margin's rounding (a step or two;
  // maxTimeoutFor never decreases as the interval grows).
  let interval = Math.max(timeoutMs + 1_000, Math.ceil(timeoutMs / 0.9));
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
