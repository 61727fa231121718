/**
 * Is the registry ready: its management port answers GET /health/ready with 200 (status UP, the
 * storage checks included). One probe, and a bounded wait that polls it.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export type ReadyProbe = { ok: true } | { ok: false; error: string };

const PROBE_TIMEOUT_MS = 2_000;

export async function probeReady(readyUrl: string): Promise<ReadyProbe> {
  try {
    const res = await fetch(readyUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = await res.text();
    if (res.status === 200) return { ok: true };
    return { ok: false, error: `GET ${readyUrl} answered ${res.status}: ${body.replace(/\s+/g, ' ').slice(0, 300)}` };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return { ok: false, error: `GET ${readyUrl} failed: ${err instanceof Error ? err.message : String(err)}${cause}` };
  }
}

export type Ready = { ok: true } | { ok: false; reason: string };

/** Polls probeReady every pollMs until it answers, alive() turns false, or timeoutMs after `since` passes. */
export async function waitRegistryReady(readyUrl: string, timeoutMs: number, since: number, alive: () => boolean, pollMs = 250): Promise<Ready> {
  const deadline = since + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (!alive()) return { ok: false, reason: 'the process exited' };
    const probe = await probeReady(readyUrl);
    if (probe.ok) return { ok: true };
    lastError = probe.error;
    await sleep(pollMs);
  }
  return { ok: false, reason: `not ready within ${Math.round(timeoutMs / 1000)} s (last: ${lastError}); raise startTimeoutMs if this machine is slow` };
}
