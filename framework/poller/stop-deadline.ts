/**
 * When a stopping poller must have left its groups. ECS sends SIGTERM, then SIGKILL once the
 * task's StopTimeout has passed; the deploy template writes that timeout into the container as
 * SLUICE_STOP_DEADLINE_MS. In-flight chunks and destination sends may run until LEAVE_MARGIN_MS
 * before it; then the member leaves the group without what still runs (never committing it),
 * so the next owner gets those records at once instead of after a session timeout. Without the
 * variable (npm start, a poller run by hand) a stop waits for everything in flight.
 */
import { ConfigError } from '../errors.ts';

export const STOP_DEADLINE_ENV = 'SLUICE_STOP_DEADLINE_MS';
/** Kept before the SIGKILL for the LeaveGroup, closing the clients and exiting. */
export const LEAVE_MARGIN_MS = 5_000;

/** Pure: how long after SIGTERM in-flight work may run (the StopTimeout less the margin); undefined without the variable. Read at start, so a bad value fails the start. */
export function inFlightBudgetMs(env: Record<string, string | undefined>): number | undefined {
  const text = env[STOP_DEADLINE_ENV];
  if (text === undefined || text === '') return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= LEAVE_MARGIN_MS) {
    throw new ConfigError(`${STOP_DEADLINE_ENV} is ${JSON.stringify(text)}: give the milliseconds between SIGTERM and SIGKILL (the task's StopTimeout), more than ${LEAVE_MARGIN_MS}.`);
  }
  return ms - LEAVE_MARGIN_MS;
}
