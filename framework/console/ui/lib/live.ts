/**
 * The page's live state: the overview (GET /api/overview, then the `overview` event once a second,
 * with the server clock's offset), whether the EventSource is open, and the invocation list
 * (GET /api/invocations?limit=200 at start, and with those running each time the stream opens or
 * says `resync`; then `invocations` batches,
 * applied in batches of at most one per 250 ms (the server's pace; one a second past FIREHOSE changes a batch) so a busy poller does not re-render per event).
 * When the overview's startedAt changes, the server is another process: its invocation ids start
 * over (the list is fetched anew) and the page's token is stale (`restarted` says so).
 * A tab hidden for HIDDEN_CLOSE_MS closes its stream, so the poller serves no page no one looks at;
 * shown again, it reconnects and fetches what ended meanwhile, as it does on the server's `resync`
 * (a message that could not hold every change). After each fetch of the list, the rows it
 * last saw running are asked for by id (the newest 200 may no longer hold them): each comes back as
 * it ended, or goes from the list when the server's history no longer holds it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { InvocationSummary, Overview } from '../../api-types.ts';
import { errorText, getJson, isAbort } from './api.ts';
import { MAX_INVOCATIONS, mergeInvocations } from './invocations.ts';

/** Changes in one batch past which the list is redrawn once a second. */
const FIREHOSE = 50;

export interface Live {
  overview: Overview | null;
  /** overview.now - Date.now() at the last overview: add it to Date.now() for the server's time. */
  offset: number;
  connected: boolean;
  overviewError: string | null;
  invocations: InvocationSummary[];
  invocationsLoaded: boolean;
  invocationsError: string | null;
  /** The server restarted since the page loaded: POSTs need the new token (a reload). */
  restarted: boolean;
}

const RECONNECT_MS = 3000;
/** How long a tab stays hidden before its stream closes (a quick switch of tabs keeps it). */
const HIDDEN_CLOSE_MS = 10_000;

export function useLive(): Live {
  const [state, setState] = useState<{ overview: Overview | null; offset: number; error: string | null }>({
    overview: null,
    offset: 0,
    error: null,
  });
  const [connected, setConnected] = useState(false);
  const [invocations, setInvocations] = useState<InvocationSummary[]>([]);
  const [loaded, setLoaded] = useState<{ done: boolean; error: string | null }>({ done: false, error: null });
  const pending = useRef<InvocationSummary[]>([]);
  /** The list as last drawn, for what a reconnect asks about. */
  const drawn = useRef<InvocationSummary[]>([]);
  drawn.current = invocations;
  const [restarted, setRestarted] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let flush: ReturnType<typeof setTimeout> | undefined;
    let hidden: ReturnType<typeof setTimeout> | undefined;
    let paused = false;
    let startedAt: number | undefined;

    /** Each change of the list: `drawn` holds the newest at once, before it is drawn (refreshRunning reads it). */
    const update = (change: (list: InvocationSummary[]) => InvocationSummary[]): void => setInvocations((list) => (drawn.current = change(list)));

    /**
     * The newest 200; after a reconnect or a `resync`, also those running (one whose start a
     * message could not hold is older than the newest 200), then the rows still running asked for
     * by id. What the stream said before is applied first: a fetched answer never turns a row back
     * to running, a live one would (a batch queued for the firehose's second, applied after).
     */
    const loadInvocations = (reconnected = false): void => {
      if (reconnected) applyPending();
      const asked = ['/api/invocations?limit=200', ...(reconnected ? [`/api/invocations?outcome=running&limit=${MAX_INVOCATIONS}`] : [])];
      Promise.all(asked.map((path) => getJson<{ invocations: InvocationSummary[] }>(path, abort.signal)))
        .then((bodies) => {
          const fetched = bodies.flatMap((body) => body.invocations);
          update((list) => mergeInvocations(list, fetched, false));
          setLoaded({ done: true, error: null });
          if (reconnected) refreshRunning(new Set(fetched.map((i) => i.id)));
        })
        .catch((err: unknown) => {
          if (!isAbort(err)) setLoaded((l) => ({ done: l.done, error: errorText(err) }));
        });
    };

    /** Rows seen running whose end the stream did not bring while it was away, asked for by id. */
    const refreshRunning = (fetched: Set<string>): void => {
      const ids = drawn.current.filter((i) => i.outcome === 'running' && !fetched.has(i.id)).map((i) => i.id);
      if (ids.length === 0) return;
      getJson<{ invocations: InvocationSummary[] }>(`/api/invocations?ids=${ids.join(',')}`, abort.signal)
        .then((body) => {
          const gone = new Set(ids.filter((id) => !body.invocations.some((i) => i.id === id)));
          // Not as live: an answer read before a row ended may arrive after the stream said it ended.
          update((list) => mergeInvocations(list.filter((i) => !gone.has(i.id)), body.invocations, false));
        })
        .catch(() => undefined); // the next reconnect asks again
    };

    const applyOverview = (overview: Overview): void => {
      setState({ overview, offset: overview.now - Date.now(), error: null });
      if (startedAt !== undefined && overview.startedAt !== startedAt) {
        setRestarted(true);
        clearTimeout(flush); // the old process's ids: none of it applies
        flush = undefined;
        pending.current = [];
        update(() => []);
        loadInvocations();
      }
      startedAt = overview.startedAt;
    };

    // A firehose (more invocations than anyone reads) is drawn once a second, not four times:
    // the browser's redraws compete with the poller for the CPU on a small machine.
    let paceMs = 250;
    const applyPending = (): void => {
      clearTimeout(flush);
      flush = undefined;
      const batch = pending.current;
      if (batch.length === 0) return;
      pending.current = [];
      paceMs = batch.length > FIREHOSE ? 1_000 : 250;
      update((list) => mergeInvocations(list, batch, true));
    };
    const queue = (inv: InvocationSummary): void => {
      pending.current.push(inv);
      flush ??= setTimeout(applyPending, paceMs);
    };

    const parse = <T>(event: Event): T | undefined => {
      try {
        return JSON.parse((event as MessageEvent<string>).data) as T;
      } catch {
        return undefined;
      }
    };

    const connect = (): void => {
      retry = undefined;
      const es = new EventSource('/api/live');
      source = es;
      es.onopen = () => {
        setConnected(true);
        // Fill in what ended while no stream was open: after a reconnect, and at the first open
        // too (between the first list and this open; a tab hidden before its stream opened
        // reaches here only when shown again).
        loadInvocations(true);
      };
      es.onerror = () => {
        setConnected(false);
        if (es.readyState === EventSource.CLOSED) {
          es.close();
          retry = setTimeout(connect, RECONNECT_MS);
        }
      };
      es.addEventListener('overview', (event) => {
        const overview = parse<Overview>(event);
        if (overview) applyOverview(overview);
      });
      // The server could not send every change (more than a message holds, or a running one left its ring).
      es.addEventListener('resync', () => loadInvocations(true));
      es.addEventListener('invocations', (event) => {
        const batch = parse<InvocationSummary[]>(event);
        if (Array.isArray(batch)) for (const inv of batch) if (inv && typeof inv.id === 'string') queue(inv);
      });
    };

    getJson<Overview>('/api/overview', abort.signal)
      .then(applyOverview)
      .catch((err: unknown) => {
        if (!isAbort(err)) setState((s) => ({ ...s, error: errorText(err) }));
      });
    loadInvocations();
    connect();

    const onVisibility = (): void => {
      if (document.visibilityState === 'hidden') {
        hidden ??= setTimeout(() => {
          hidden = undefined;
          paused = true;
          source?.close();
          clearTimeout(retry);
          setConnected(false);
        }, HIDDEN_CLOSE_MS);
        return;
      }
      clearTimeout(hidden);
      hidden = undefined;
      if (!paused) return;
      paused = false;
      connect(); // its open fetches what ended while the tab was hidden
    };
    document.addEventListener('visibilitychange', onVisibility);
    // A tab opened in the background is hidden from the start: no change of visibility arms its pause.
    if (document.visibilityState === 'hidden') onVisibility();
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      abort.abort();
      source?.close();
      clearTimeout(retry);
      clearTimeout(flush);
      clearTimeout(hidden);
    };
  }, []);

  return {
    overview: state.overview,
    offset: state.offset,
    connected,
    overviewError: state.error,
    invocations,
    invocationsLoaded: loaded.done,
    invocationsError: loaded.error,
    restarted,
  };
}
