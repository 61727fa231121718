/**
 * Pure: how long past a function's timeout one invocation through the lambda invoker may take:
 * its grace for Lambda's answer, plus every throttle retry's backoff at its longest. The poll
 * budget reserves it (Invoker.overheadMs), and the deploy template counts it in the task's
 * stop timeout.
 */
import { retryCeilingMs, type BackoffOptions } from '../failure/backoff.ts';

export const DEFAULT_RESPONSE_GRACE_MS = 5_000;
export const DEFAULT_MAX_THROTTLE_RETRIES = 4;
export const DEFAULT_THROTTLE_BACKOFF: BackoffOptions = { baseMs: 100, capMs: 2_000 };

export function lambdaOverheadMs(graceMs = DEFAULT_RESPONSE_GRACE_MS, maxThrottleRetries = DEFAULT_MAX_THROTTLE_RETRIES, backoff = DEFAULT_THROTTLE_BACKOFF): number {
  let overheadMs = graceMs;
  for (let r = 1; r <= maxThrottleRetries; r++) overheadMs += retryCeilingMs(r, backoff);
  return overheadMs;
}
