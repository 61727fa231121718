/**
 * A key filter reaches past the five keys a summary carries: the server matches every key of each
 * invocation whose records it still holds (GET /api/invocations?key=). Asked again when the list
 * changes, at most every ASK_EVERY_MS, so a firehose does not turn into a request per redraw.
 * Null while no key is asked for or answered; the invocations the server matched otherwise.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { InvocationSummary } from '../../api-types.ts';
import { getJson, isAbort } from './api.ts';

const ASK_EVERY_MS = 2_000;
/** A key being typed is asked for once it rests this long. */
const TYPING_MS = 250;

export function useKeyMatches(key: string, changes: unknown): InvocationSummary[] | null {
  const wanted = key.trim();
  const [matches, setMatches] = useState<{ key: string; list: InvocationSummary[] } | null>(null);
  const asked = useRef<{ key: string; at: number; abort: AbortController } | null>(null);

  // A new key (or none) ends the question about the last one.
  useEffect(() => () => asked.current?.abort.abort(), [wanted]);

  useEffect(() => {
    if (wanted === '') return;
    const again = asked.current?.key === wanted;
    const wait = again ? Math.max(0, ASK_EVERY_MS - (Date.now() - asked.current!.at)) : TYPING_MS;
    const timer = setTimeout(() => {
      const abort = new AbortController();
      asked.current = { key: wanted, at: Date.now(), abort };
      getJson<{ invocations: InvocationSummary[] }>(`/api/invocations?key=${encodeURIComponent(wanted)}`, abort.signal)
        .then((body) => setMatches({ key: wanted, list: body.invocations }))
        .catch((err: unknown) => {
          // Unanswered, the filter still matches the keys the page has; the next change asks again.
          if (!isAbort(err)) asked.current = { key: wanted, at: 0, abort };
        });
    }, wait);
    return () => clearTimeout(timer);
  }, [wanted, changes]);

  return wanted !== '' && matches?.key === wanted ? matches.list : null;
}
