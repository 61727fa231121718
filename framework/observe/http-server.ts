/**
 * The poller's one small HTTP server: `GET /healthz` (200 while every trigger has a running
 * consumer and the event loop is responsive, else 503 naming what fails) and `GET /readyz`
 * (200 once every trigger joined its group and holds its assignment). ECS's container health
 * check and a terminal user's curl read the same JSON. `GET /metrics`: Prometheus text format
 * (observe/metrics.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SluiceError } from '../errors.ts';
import { monitorEventLoop } from './event-loop.ts';
import type { HealthTracker } from './health.ts';
import type { ProgressTracker } from './progress.ts';

/** A loop stalled longer than this (ms) is not responsive: heartbeats would be late too. */
export const LOOP_STALL_MS = 2_000;

export interface HttpServerOptions {
  host: string;
  port: number;
  /** The user chose this port: if it is taken, fail. Otherwise fall back to any free port. */
  explicit: boolean;
  health: HealthTracker;
  /** Partitions that wait without progress (observe/progress.ts): /healthz fails for a stuck one. */
  progress?: Pick<ProgressTracker, 'snapshot'>;
  metrics?: MetricsSource;
  /** Other routes on the same server (the console, framework/console/): true if it served the request. */
  routes?: { handle(req: IncomingMessage, res: ServerResponse): boolean };
  /** Called when the default port was taken and another was used. */
  onFallback?(taken: number, used: number): void;
}

export interface MetricsSource {
  readonly contentType: string;
  text(): Promise<string>;
}

export interface HttpServer {
  /** `http://<host>:<port>`, with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const loop = monitorEventLoop();
  const server = createServer((req, res) => {
    if ((req.url ?? '/').split('?')[0] === '/metrics' && o.metrics && (req.method === 'GET' || req.method === 'HEAD')) return void serveMetrics(req, res, o.metrics);
    if (o.routes?.handle(req, res)) return;
    respond(req, res, o.health, o.progress, loop.maxDelayMs());
  });
  server.keepAliveTimeout = 1_000;
  try {
    await listen(server, o.host, o.port).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EADDRINUSE') throw e;
      if (o.explicit) {
        throw new SluiceError('HTTP_PORT_TAKEN', `Port ${o.port} on ${o.host} is taken (another poller?): set SLUICE_HTTP_PORT or custom.sluice.http.port to a free port, or 0 for any free one.`, { cause: e });
      }
      await listen(server, o.host, 0);
      o.onFallback?.(o.port, (server.address() as AddressInfo).port);
    });
  } catch (e) {
    loop.stop();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host === '0.0.0.0' ? '127.0.0.1' : o.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        loop.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function respond(req: IncomingMessage, res: ServerResponse, health: HealthTracker, progress: HttpServerOptions['progress'], loopDelayMs: number): void {
  const path = (req.url ?? '/').split('?')[0];
  const send = (status: number, body: object) => {
    const text = JSON.stringify(body, null, 2) + '\n';
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { error: `${req.method} is not supported; use GET.` });
  const eventLoop = { maxDelayMs: Math.round(loopDelayMs), limitMs: LOOP_STALL_MS, responsive: loopDelayMs <= LOOP_STALL_MS };
  if (path === '/healthz') {
    const failing = health.failing();
    const partitions = progress?.snapshot() ?? [];
    const stuck = partitions.filter((p) => p.state === 'stuck');
    const ok = failing.length === 0 && stuck.length === 0 && eventLoop.responsive;
    const reasons = [
      ...failing.map((t) => `${t.function} ← ${t.topic} (group ${t.group}): ${t.state === 'failed' ? 'given up' : 'consumer stopped, restarting'}${t.lastError ? `: ${t.lastError}` : ''}`),
      ...stuck.map((p) => `${p.function} ← ${p.topic}-${p.partition} (group ${p.group}): stuck: ${p.reason}`),
      ...(eventLoop.responsive ? [] : [`event loop stalled for ${eventLoop.maxDelayMs} ms (limit ${LOOP_STALL_MS} ms)`]),
    ];
    // Held partitions (a retry, a destination or registry that does not answer) are slow by policy, not failing.
    const held = partitions.filter((p) => p.state === 'held');
    return send(ok ? 200 : 503, { status: ok ? 'ok' : 'failing', ...(ok ? {} : { reasons }), eventLoop, triggers: health.triggers(), ...(held.length || stuck.length ? { partitions: [...stuck, ...held] } : {}) });
  }
  if (path === '/readyz') {
    const waiting = health.notReady();
    const ok = waiting.length === 0;
    return send(ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', ...(ok ? {} : { waitingFor: waiting.map((t) => `${t.function} ← ${t.topic} (group ${t.group}): ${t.state}`) }), triggers: health.triggers() });
  }
  send(404, { error: `no ${path} here; try /healthz, /readyz or /metrics.` });
}

async function serveMetrics(req: IncomingMessage, res: ServerResponse, metrics: MetricsSource): Promise<void> {
  try {
    const text = await metrics.text();
    res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (e) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`metrics failed: ${(e as Error).message}\n`);
  }
}
