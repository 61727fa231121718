/**
 * The console's routes on the poller's HTTP server (observe/http-server.ts hands it every path
 * it does not serve itself): the page at `/`, its bundle under `/console/`, and the JSON API and
 * live stream under `/api/` (api-types.ts). Every request passes guard.ts first; POSTs are
 * refused in a read-only console. The live stream sends the overview once a second and the
 * invocations that changed, four times a second (once a second past a firehose), and only while a
 * page is connected: with no page open the console
 * costs the event bookkeeping of console-state.ts and the history, nothing more.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildEvent } from '../event/build-event.ts';
import type { FailureDestination, InvocationDetail, InvocationSummary } from './api-types.ts';
import type { ConsoleActions } from './actions.ts';
import { UsageError } from '../errors.ts';
import { consoleAssets, CONTENT_SECURITY_POLICY, NOT_BUILT, shellHtml } from './assets.ts';
import type { ConsoleState } from './console-state.ts';
import { refusedRead, refusedWrite } from './guard.ts';
import { eventOf, summaryOf, type Invocation, type InvocationHistory } from './history.ts';

const LIVE_EVERY_MS = 1_000;
/**
 * Invocation changes are sent together, four times a second, or once a second while more than
 * FIREHOSE change between two messages: one message per change cost a busy poller half its
 * throughput with a page open (bench: console), and no one reads thousands a second.
 */
const INVOCATIONS_EVERY_MS = 250;
const FIREHOSE_EVERY_MS = 1_000;
const FIREHOSE = 50;
/** At most this many invocations per message (the newest changed): the page keeps 500. */
const INVOCATIONS_PER_MESSAGE = 200;
const MAX_PAGES = 32;
/** How often, while a page is open, the group's commits and the log ends are read from the cluster. */
const OFFSETS_EVERY_MS = 10_000;
/** How long one read of the failure destinations answers /api/failures. */
const FAILURES_FRESH_MS = 3_000;
const MAX_BODY = 8 * 1024 * 1024;

export interface ConsoleServerOptions {
  title: string;
  state: ConsoleState;
  history: InvocationHistory;
  actions: ConsoleActions;
  readOnly: boolean;
  /** Host names accepted besides IP addresses and localhost (SLUICE_CONSOLE_HOSTS). */
  hosts?: readonly string[];
  token?: string;
}

export interface ConsoleServer {
  /** Serves the request if it is the console's; false if not (the health server answers it). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  close(): void;
}

/** Ids one request may ask for (GET /api/invocations?ids=): more than a page's running rows ever are. */
const MAX_IDS = 500;

export function consoleServer(o: ConsoleServerOptions): ConsoleServer {
  const guard = { token: o.token ?? randomBytes(24).toString('base64url'), hosts: o.hosts ?? [] };
  const assets = consoleAssets();
  const pages = new Set<ServerResponse>();
  let ticker: NodeJS.Timeout | undefined;
  let flusher: NodeJS.Timeout | undefined;
  let offsetReader: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  /** The newest INVOCATIONS_PER_MESSAGE invocations changed since the last message, in order of their latest change. */
  const changed = new Set<Invocation>();
  /** Changes since the last message, all of them (the pace past a firehose). */
  let changes = 0;
  /** A change since the last message is not in `changed` (past its 200, or an invocation gone while running): the page is told to fetch again. */
  let resync = false;
  let lastSent = 0;
  let lastSize = 0;

  const push = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of pages) res.write(frame);
  };
  const live = (req: IncomingMessage, res: ServerResponse) => {
    if (pages.size >= MAX_PAGES) return json(res, 503, { error: `${MAX_PAGES} console pages are open already; close one.` });
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.write(`retry: 1000\nevent: overview\ndata: ${JSON.stringify(o.state.overview())}\n\n`);
    pages.add(res);
    if (!ticker) {
      ticker = setInterval(() => push('overview', o.state.overview()), LIVE_EVERY_MS);
      // What this process has not seen (a partition idle since the start) is read from the cluster, while a page looks.
      const refresh = () => void (refreshing ??= o.actions.refreshOffsets().finally(() => (refreshing = undefined)));
      refresh();
      offsetReader = setInterval(refresh, OFFSETS_EVERY_MS);
      unsubscribe = o.history.subscribe((i) => {
        changes++;
        changed.delete(i); // re-added last: the set stays in order of the latest change
        // Pushed out of its ring while running: its end will never be told, nor asked for by id.
        if (i.gone && i.outcome === 'running') return void (resync = true);
        changed.add(i);
        // Only the newest are sent. Holding a firehose's second of invocations (and the records
        // each refers to) past the history's own ring cost the poller 40% more garbage collection.
        // A page that missed some (an end among them) fetches them.
        if (changed.size > INVOCATIONS_PER_MESSAGE) {
          changed.delete(changed.values().next().value!);
          resync = true;
        }
      });
      flusher = setInterval(() => {
        const now = Date.now();
        if ((changed.size === 0 && !resync) || now - lastSent < (lastSize > FIREHOSE ? FIREHOSE_EVERY_MS : INVOCATIONS_EVERY_MS) - 10) return;
        lastSize = changes;
        lastSent = now;
        const batch = [...changed].map(summaryOf);
        changed.clear();
        changes = 0;
        if (batch.length > 0) push('invocations', batch);
        if (resync) push('resync', null);
        resync = false;
      }, INVOCATIONS_EVERY_MS);
    }
    req.on('close', () => {
      pages.delete(res);
      if (pages.size === 0) stopLive();
    });
  };
  const stopLive = () => {
    clearInterval(ticker);
    clearInterval(flusher);
    clearInterval(offsetReader);
    offsetReader = undefined;
    ticker = undefined;
    flusher = undefined;
    changed.clear();
    changes = 0;
    resync = false;
    unsubscribe?.();
    unsubscribe = undefined;
  };

  // One read of the destinations at a time, reused for a few seconds: each reads whole topics.
  let failuresRead: { at: number; answer: Promise<FailureDestination[]> } | undefined;
  const failures = (): Promise<FailureDestination[]> => {
    if (!failuresRead || Date.now() - failuresRead.at > FAILURES_FRESH_MS) {
      const answer = o.actions.failures();
      failuresRead = { at: Date.now(), answer };
      answer.catch(() => (failuresRead = undefined));
    }
    return failuresRead.answer;
  };

  const route = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> => {
    if (req.method === 'POST') {
      if (o.readOnly) return json(res, 403, { error: 'This console is read-only: replay, produce and redrive need SLUICE_CONSOLE=read-write where the poller runs.' });
      const refused = refusedWrite(req.headers, guard);
      if (refused) return json(res, 403, { error: refused });
      const body = await readJson(req);
      if (path === '/api/replay') {
        // The entry itself: a busy function may have pushed it out of the history while it ran.
        const { entry } = await o.actions.replay(body);
        return json(res, 200, detailOf(entry));
      }
      if (path === '/api/produce') return json(res, 200, await o.actions.produce(body));
      if (path === '/api/redrive') return json(res, 200, await o.actions.redrive(body));
      return json(res, 404, { error: `no POST ${path} here; the console's actions are /api/replay, /api/produce and /api/redrive.` });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: `${req.method} is not supported here.` });
    if (path === '/') return page(res, 200, 'text/html; charset=utf-8', Buffer.from(shellHtml(guard.token, o.title)));
    if (path.startsWith('/console/')) {
      const a = await assets.get(path.slice('/console/'.length));
      return a ? page(res, 200, a.type, a.body) : json(res, 404, { error: path === '/console/app.js' || path === '/console/app.css' ? NOT_BUILT : `no ${path} here.` });
    }
    if (path === '/api/overview') return json(res, 200, o.state.overview());
    if (path === '/api/live') return req.method === 'HEAD' ? page(res, 200, 'text/event-stream; charset=utf-8', Buffer.alloc(0)) : live(req, res);
    if (path === '/api/invocations' && query.has('ids')) {
      // The invocations a page last saw running, asked for by id after its stream was away (live.ts).
      const ids = query.get('ids')!.split(',').filter((id) => /^\d+$/.test(id)).slice(0, MAX_IDS);
      return json(res, 200, { invocations: ids.flatMap((id) => { const e = o.history.get(id); return e ? [summaryOf(e)] : []; }) satisfies InvocationSummary[] });
    }
    if (path === '/api/invocations') {
      const n = (k: string) => (query.has(k) && /^\d+$/.test(query.get(k)!) ? Number(query.get(k)) : undefined);
      const list = o.history.list({ ...opt('function', query.get('function')), ...opt('partition', n('partition')), ...opt('outcome', query.get('outcome')), ...opt('key', query.get('key')), ...opt('limit', n('limit')) });
      return json(res, 200, { invocations: list.map(summaryOf) satisfies InvocationSummary[] });
    }
    if (path.startsWith('/api/invocations/')) {
      const e = o.history.get(path.slice('/api/invocations/'.length));
      return e ? json(res, 200, detailOf(e)) : json(res, 404, { error: `no invocation ${path.slice(17)} in the history (it keeps the last ${o.history.limits.size} per function).` });
    }
    if (path === '/api/failures') return json(res, 200, { destinations: await failures() });
    return json(res, 404, { error: `no ${path} here; the console is at /, health at /healthz, /readyz and /metrics.` });
  };

  return {
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      if (path !== '/' && !path.startsWith('/console/') && !path.startsWith('/api/')) return false;
      const refused = refusedRead(req.headers, guard, path.startsWith('/api/'));
      if (refused) {
        json(res, 403, { error: refused });
        return true;
      }
      route(req, res, path, url.searchParams).catch((e: unknown) => {
        if (res.headersSent) return void res.end();
        const input = e instanceof UsageError || e instanceof BodyError;
        json(res, input ? 400 : 500, { error: input ? (e as Error).message : `${(e as Error).message ?? String(e)}` });
      });
      return true;
    },
    close() {
      stopLive();
      for (const res of pages) res.end();
      pages.clear();
    },
  };
}

function detailOf(e: Invocation): InvocationDetail {
  const records = eventOf(e);
  return {
    ...summaryOf(e),
    event: records ? buildEvent(records, e.source) : null,
    ...(e.eventDropped ? { eventDropped: e.eventDropped } : {}),
    ...(e.detailDropped ? { detailDropped: e.detailDropped } : {}),
    logs: e.logs,
    ...(e.logsTruncated ? { logsTruncated: true } : {}),
    ...(e.response !== undefined ? { response: e.response } : {}),
    ...(e.errorDetail ? { errorDetail: e.errorDetail } : {}),
  };
}

const opt = <K extends string, V>(k: K, v: V | null | undefined) => (v === null || v === undefined || v === '' ? {} : ({ [k]: v } as Record<K, V>));

const SECURITY_HEADERS = { 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

function page(res: ServerResponse, status: number, type: string, body: Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': body.length });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

class BodyError extends Error {}

async function readJson(req: IncomingMessage): Promise<Record<string, never>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new BodyError(`The request is over ${MAX_BODY / 1048576} MiB.`);
    chunks.push(chunk);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, never>;
  } catch {
    // answered below
  }
  throw new BodyError('The request body must be a JSON object.');
}
