/**
 * The page's invocation list: newest first, at most MAX_INVOCATIONS (older ones fall off), upserted
 * by id, and filtered on the client by function, partition, outcome and key substring.
 */
import type { InvocationSummary, Outcome } from '../../api-types.ts';

export const MAX_INVOCATIONS = 500;

function newestFirst(a: InvocationSummary, b: InvocationSummary): number {
  // Ids are whole numbers as text, counted up by the server: compared as numbers ("10" after "9").
  return b.startedAt - a.startedAt || Number(b.id) - Number(a.id);
}

/**
 * `list` with `incoming` upserted. A live event always wins (it is the latest word on its id); a
 * fetched page does not turn an invocation the live stream saw end back into a running one.
 */
export function mergeInvocations(
  list: InvocationSummary[],
  incoming: InvocationSummary[],
  live: boolean,
): InvocationSummary[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((inv) => [inv.id, inv]));
  for (const inv of incoming) {
    const known = byId.get(inv.id);
    if (!live && known && known.outcome !== 'running' && inv.outcome === 'running') continue;
    byId.set(inv.id, inv);
  }
  return [...byId.values()].sort(newestFirst).slice(0, MAX_INVOCATIONS);
}

/**
 * The page's list with what the server matched on a key (useKeyMatches) that it does not hold,
 * older ones included: the list's own copy is the fresher (the live stream updates it).
 */
export function withKeyMatches(list: InvocationSummary[], matches: InvocationSummary[]): InvocationSummary[] {
  const held = new Set(list.map((inv) => inv.id));
  const more = matches.filter((m) => !held.has(m.id));
  return more.length === 0 ? list : [...list, ...more].sort(newestFirst);
}

export interface InvocationFilter {
  function: string;
  partition: string;
  outcome: Outcome | '';
  key: string;
}

export const OUTCOMES: Outcome[] = ['ok', 'partial', 'failed', 'running'];

export function filterFromParams(params: URLSearchParams): InvocationFilter {
  const outcome = params.get('outcome') ?? '';
  return {
    function: params.get('function') ?? '',
    partition: params.get('partition') ?? '',
    outcome: (OUTCOMES as string[]).includes(outcome) ? (outcome as Outcome) : '',
    key: params.get('key') ?? '',
  };
}

export function filterToParams(filter: InvocationFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== '') params.set(name, value);
  return params;
}

export function isFiltered(filter: InvocationFilter): boolean {
  return Object.values(filter).some((value) => value !== '');
}

/**
 * `keyMatched`: ids the server matched on any key of their records (useKeyMatches), besides the
 * summaries' first five keys, which the page matches itself.
 */
export function applyFilter(list: InvocationSummary[], filter: InvocationFilter, keyMatched?: ReadonlySet<string>): InvocationSummary[] {
  if (!isFiltered(filter)) return list;
  const partition = filter.partition.trim() === '' ? undefined : Number(filter.partition);
  const key = filter.key.trim().toLowerCase();
  return list.filter(
    (inv) =>
      (filter.function === '' || inv.function === filter.function) &&
      (partition === undefined || inv.partition === partition) &&
      (filter.outcome === '' || inv.outcome === filter.outcome) &&
      (key === '' || keyMatched?.has(inv.id) || inv.keys.some((k) => k.toLowerCase().includes(key))),
  );
}
