/**
 * What `status` can only learn from a running poller, not from the brokers: the invocations of
 * each partition running now (`sluice_partition_chunks_in_flight`, parallelizationFactor > 1),
 * read from the local poller's `GET /metrics`. A poller that does not answer is no error: the
 * brokers' report stands, with a note.
 */
import type { ServiceSpec } from '../config/types.ts';
import { httpSettings, urlHost } from './http-settings.ts';

const READ_WITHIN_MS = 1_000;

/** In-flight invocations by `function|topic|partition`, from Prometheus text. */
export function inFlightFromMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('sluice_partition_chunks_in_flight{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (labels.function && labels.topic && labels.partition && Number.isFinite(value)) out.set(`${labels.function}|${labels.topic}|${labels.partition}`, value);
  }
  return out;
}

/** Where the poller `npm start` runs on this machine serves its metrics (SLUICE_HTTP_HOST, SLUICE_HTTP_PORT, custom.sluice.http.port, 9464). */
export function localMetricsUrl(service: Pick<ServiceSpec, 'http'>, env: NodeJS.ProcessEnv = process.env): string {
  const { host, port } = httpSettings('local', env, service);
  return `http://${urlHost(host)}:${port}/metrics`;
}

/** The poller's in-flight invocations, or the reason none could be read. */
export async function readInFlight(url: string): Promise<Map<string, number> | { unreachable: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(READ_WITHIN_MS) });
    // A Sluice poller always serves /metrics: a 404 is something else holding the port, and a poller that found it taken serves on another (its start banner names it).
    if (res.status === 404) return { unreachable: `${url} answered 404, not a Sluice poller (one that found the port taken serves on another, named in its start banner: give it as SLUICE_HTTP_PORT)` };
    if (!res.ok) return { unreachable: `${url} answered ${res.status}: ${(await res.text().catch(() => '')).split('\n')[0]!.slice(0, 200)}` };
    return inFlightFromMetrics(await res.text());
  } catch (e) {
    return { unreachable: `no poller answered at ${url} (${(e as Error).message})` };
  }
}
