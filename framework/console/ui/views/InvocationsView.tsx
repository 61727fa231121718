/**
 * #/invocations — newest first, live, filtered on the page (the filters live in the hash, so a
 * filtered list is linkable). `/` focuses the key filter; ↑/↓ move between rows; Enter opens one.
 * The table draws the newest rows that match, as many as fill the window and ten more, and
 * more as the reader scrolls near its end (or asks with "show more"): a busy poller's page redraws
 * the rows it draws every second, and Chromium's CPU grows with them (bench/console-page.ts at 200
 * invocations a second: 57 ms a second for 100 rows, 29 for 30; 500 rows had cost a 2-core machine
 * a quarter of its throughput).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { InvocationSummary } from '../../api-types.ts';
import { Empty, ErrorNote, Loading } from '../components/Empty.tsx';
import { InvocationFilters } from '../components/InvocationFilters.tsx';
import { InvocationRow } from '../components/InvocationRow.tsx';
import { count } from '../lib/format.ts';
import { applyFilter, filterFromParams, filterToParams, isFiltered, MAX_INVOCATIONS, withKeyMatches } from '../lib/invocations.ts';
import { useKeyMatches } from '../lib/key-matches.ts';
import { hasModifier, isTyping } from '../lib/keys.ts';

interface Props {
  invocations: InvocationSummary[];
  loaded: boolean;
  error: string | null;
  functions: string[];
  params: URLSearchParams;
  setParams: (params: URLSearchParams) => void;
  canWrite: boolean;
  /** Per function, successful invocations not listed (they ran past eventsPerSecond while no page was open, or past listedPerSecond while one was). */
  unlisted?: Record<string, number> | undefined;
  eventsPerSecond?: number | undefined;
  listedPerSecond?: number | undefined;
}

/** Rows added by each "show more", or by scrolling near the table's end. */
const ROWS = 50;
/** A row is at least this tall (px): the window's height over it is what fits. */
const ROW_PX = 30;
/**
 * How near the page's end (px) a scroll draws more rows. Also asked at load and on resize, so it is
 * kept well below what the first rows reach past the window (ten rows, about 340 px): more would
 * grow the table at load on a page whose rows are a little shorter.
 */
const NEAR_END_PX = 200;

/** Rows drawn at first: what fits the window, and ten more. */
function firstRows(windowHeight: number): number {
  return Math.max(20, Math.ceil(windowHeight / ROW_PX) + 10);
}

function moveFocus(e: KeyboardEvent): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const row = (e.target as HTMLElement).closest('tr');
  const next = e.key === 'ArrowDown' ? row?.nextElementSibling : row?.previousElementSibling;
  if (next instanceof HTMLElement) {
    e.preventDefault();
    next.focus();
  }
}

export function InvocationsView({ invocations, loaded, error, functions, params, setParams, canWrite, unlisted, eventsPerSecond, listedPerSecond }: Props) {
  const query = params.toString();
  const filter = useMemo(() => filterFromParams(new URLSearchParams(query)), [query]);
  const keyInput = useRef<HTMLInputElement>(null);
  const keyMatches = useKeyMatches(filter.key, invocations);
  const shown = useMemo(() => {
    if (!keyMatches) return applyFilter(invocations, filter);
    // What the server matched beyond the page's list (older than it keeps) is shown too.
    return applyFilter(withKeyMatches(invocations, keyMatches), filter, new Set(keyMatches.map((m) => m.id)));
  }, [invocations, filter, keyMatches]);
  // The rows drawn, for the filters they were grown under: new filters start again from what fills the window.
  const [drawn, setDrawn] = useState(() => ({ query, rows: firstRows(innerHeight) }));
  const limit = drawn.query === query ? drawn.rows : firstRows(innerHeight);
  const more = shown.length > limit;
  // Grown from the rows drawn, not from the last request: the scroll events before the next redraw ask once.
  const grow = useRef(() => {});
  grow.current = () => setDrawn({ query, rows: limit + ROWS });
  useEffect(() => {
    if (!more) return;
    const onScroll = (): void => {
      if (innerHeight + scrollY >= document.documentElement.scrollHeight - NEAR_END_PX) grow.current();
    };
    // Asked once now too: the window may show the table's end with no scroll to come (made taller, or
    // the rows grown or filtered to fewer than fill it), where only the mouse's "show more" would grow it.
    onScroll();
    addEventListener('scroll', onScroll, { passive: true });
    addEventListener('resize', onScroll, { passive: true });
    return () => {
      removeEventListener('scroll', onScroll);
      removeEventListener('resize', onScroll);
    };
  }, [more, limit]);
  // Rows are keyed by their place, not their invocation: a redraw rewrites the text of rows that
  // stay, where keys by id removed and built every row anew each time the list moved (at a firehose,
  // all of them each second: half the page's CPU). The focus follows its invocation (below).
  const rows = useMemo(() => shown.slice(0, limit).map((inv, i) => <InvocationRow key={i} inv={inv} />), [shown, limit]);
  const tbody = useRef<HTMLTableSectionElement>(null);
  const focused = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const active = document.activeElement;
    const id = focused.current;
    if (id === undefined || !(active instanceof HTMLElement) || !tbody.current?.contains(active) || active.dataset.id === id) return;
    const row = tbody.current.querySelector(`tr[data-id="${CSS.escape(id)}"]`);
    if (row instanceof HTMLElement) return row.focus({ preventScroll: true });
    // Its invocation is no longer drawn: the row now shows another, which Enter must not open unasked.
    focused.current = undefined;
    active.blur();
  }, [rows]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === '/' && !hasModifier(e) && !isTyping(e.target)) {
        e.preventDefault();
        keyInput.current?.focus();
        keyInput.current?.select();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  let body;
  if (!loaded && invocations.length === 0) {
    body = error ? <ErrorNote>Could not load the invocations: {error}</ErrorNote> : <Loading what="invocations" />;
  } else if (invocations.length === 0) {
    body = (
      <Empty testid="invocations-empty">
        No invocations yet — {canWrite && <>send a record from <a href="#/send">Send</a> or </>}with{' '}
        <code>npm run produce -- &lt;topic&gt; '{'{…}'}'</code>
      </Empty>
    );
  } else if (shown.length === 0) {
    body = (
      <Empty testid="invocations-empty">
        No invocation of the {count(invocations.length)} kept here matches these filters.{' '}
        <button type="button" class="link" onClick={() => setParams(new URLSearchParams())}>
          Clear the filters
        </button>
      </Empty>
    );
  } else {
    body = (
      <div class="table-wrap">
        <table class="invocations">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Function</th>
              <th scope="col">Topic-partition</th>
              <th scope="col" class="num">Offsets</th>
              <th scope="col" class="num">Records</th>
              <th scope="col" class="num">Attempt</th>
              <th scope="col" class="num">Duration</th>
              <th scope="col">Outcome</th>
              <th scope="col">Keys</th>
            </tr>
          </thead>
          <tbody ref={tbody} onKeyDown={moveFocus} onFocusIn={(e) => (focused.current = (e.target as HTMLElement).closest('tr')?.dataset.id)}>
            {rows}
          </tbody>
        </table>
        {more && (
          <button type="button" class="link more" data-testid="invocations-more" onClick={() => grow.current()}>
            Show {count(Math.min(ROWS, shown.length - limit))} more of {count(shown.length - limit)}
          </button>
        )}
      </div>
    );
  }

  return (
    <div class="invocations-view">
      <div class="view-head">
        <h1>Invocations</h1>
        <p class="muted">
          {isFiltered(filter) ? `${count(shown.length)} of ${count(invocations.length)}` : count(invocations.length)} shown · the page keeps
          the newest {MAX_INVOCATIONS}
        </p>
      </div>
      <InvocationFilters filter={filter} functions={functions} keyInput={keyInput} onChange={(f) => setParams(filterToParams(f))} />
      {error && loaded && <ErrorNote>Could not refresh the invocations: {error}</ErrorNote>}
      <UnlistedNote unlisted={unlisted} only={filter.function} eventsPerSecond={eventsPerSecond} listedPerSecond={listedPerSecond} />
      {body}
    </div>
  );
}

/** Says that successes ran unlisted past the rates the console lists at, and how many, for the function filtered on (or all). */
function UnlistedNote({ unlisted, only, eventsPerSecond, listedPerSecond }: { unlisted: Record<string, number> | undefined; only: string; eventsPerSecond: number | undefined; listedPerSecond: number | undefined }) {
  const counts = Object.entries(unlisted ?? {}).filter(([fn, n]) => n > 0 && (!only || fn === only));
  if (counts.length === 0) return null;
  return (
    <p class="muted note" data-testid="invocations-unlisted">
      The console lists the first {count(eventsPerSecond ?? 0)} invocations a second of a function while no page is open (or its tab is hidden for
      10 s), the first {count(listedPerSecond ?? 0)} while one is, and every one that failed; successful invocations past that were counted, not listed: {counts.map(([fn, n]) => `${count(n)} of ${fn}`).join(', ')}. The
      charts and totals count every invocation.
    </p>
  );
}
