/**
 * What the console-page tests share: the built console page (dist/console) in Chromium against the
 * console's own routes over a real InvocationHistory, on loopback, with no poller. Registers the
 * file's hooks: the server and browser start before its tests, every page closes after each test
 * (one that failed must not leave its stream open for the next), both stop after them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ConsoleActions } from '../../framework/console/actions.ts';
import type { ConsoleState } from '../../framework/console/console-state.ts';
import type { InvocationHistory } from '../../framework/console/history.ts';
import { consoleServer } from '../../framework/console/server.ts';

export interface ServedPage {
  /** The page, `/` of the server (set before the tests run). */
  url: string;
  browser: Browser;
  /** Live streams (/api/live) the server holds open now. */
  streams: number;
  /** Requests to /api/invocations, by path and query. */
  requests: Array<{ at: number; path: string }>;
  /** While set, a new live stream is answered only once it settles: a stream slow to open. */
  holdLive: Promise<void> | undefined;
}

export function servedPage(history: InvocationHistory, title: string): ServedPage {
  const startedAt = Date.now();
  const served: ServedPage = { url: '', browser: undefined as unknown as Browser, streams: 0, requests: [], holdLive: undefined };
  let server: Server | undefined;
  beforeAll(async () => {
    const { eventsPerSecond, listedPerSecond } = history.limits;
    const overview = () => ({ service: 's', stage: 'dev', mode: 'read-only', now: Date.now(), startedAt, historySize: history.limits.size, unlisted: history.unlistedCounts(), eventsPerSecond, listedPerSecond, triggers: [], timeline: [], topics: [] });
    const routes = consoleServer({ title, state: { overview } as unknown as ConsoleState, history, actions: { refreshOffsets: async () => {} } as unknown as ConsoleActions, readOnly: true });
    server = createServer(async (req, res) => {
      if (req.url?.startsWith('/api/invocations')) served.requests.push({ at: Date.now(), path: req.url });
      if (req.url === '/api/live') {
        served.streams++;
        res.on('close', () => served.streams--);
        await served.holdLive;
        if (res.destroyed) return;
      }
      void (routes.handle(req, res) || res.writeHead(404).end());
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    served.browser = await chromium.launch({ executablePath: process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  });
  afterEach(async () => {
    for (const context of served.browser.contexts()) await context.close();
  });
  afterAll(async () => {
    await served.browser?.close();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  });
  return served;
}
