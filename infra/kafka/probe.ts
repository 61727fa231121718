/**
 * Network checks for the local broker: does a bootstrap address answer a metadata request,
 * and is a port free to listen on.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';

export type ProbeResult = { ok: true; brokers: number } | { ok: false; error: Error };

/** One describeCluster() with short timeouts and no retries; a failure is returned, not thrown. */
export async function probeMetadata(bootstrap: string): Promise<ProbeResult> {
  const kafka = new Kafka({
    clientId: 'sluice-infra-probe',
    brokers: [bootstrap],
    connectionTimeout: 1_000,
    requestTimeout: 2_000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return { ok: true, brokers: cluster.brokers.length };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err : new Error(String(err)) };
  } finally {
    await admin.disconnect();
  }
}

/** True when nothing listens on host:port (we could bind it); false on EADDRINUSE. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(false);
      else reject(err);
    });
    server.listen({ port, host, exclusive: true }, () => {
      server.close((err) => (err ? reject(err) : resolve(true)));
    });
  });
}

export type Ready = { ok: true } | { ok: false; reason: string };

/** Polls probeMetadata every pollMs until it answers, alive() turns false, or timeoutMs passes. */
export async function waitReady(bootstrap: string, timeoutMs: number, since: number, alive: () => boolean, pollMs = 250): Promise<Ready> {
  const deadline = since + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (!alive()) return { ok: false, reason: 'the process exited' };
    const probe = await probeMetadata(bootstrap);
    if (probe.ok) return { ok: true };
    lastError = probe.error.message;
    await sleep(pollMs);
  }
  return { ok: false, reason: `not ready within ${Math.round(timeoutMs / 1000)} s (last error: ${lastError}); raise startTimeoutMs if this machine is slow` };
}
