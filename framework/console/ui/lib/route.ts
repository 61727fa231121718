/**
 * Hash routes, so every view is linkable: #/ (triggers), #/invocations[?filters],
 * #/invocations/<id>, #/failures, #/send, #/timeline. Filters live in the hash's query and are
 * replaced in place (no history entry per keystroke).
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { name: 'triggers' }
  | { name: 'invocations'; params: URLSearchParams }
  | { name: 'invocation'; id: string }
  | { name: 'failures' }
  | { name: 'send' }
  | { name: 'timeline' }
  | { name: 'not-found'; path: string };

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = (q < 0 ? raw : raw.slice(0, q)).replace(/\/+$/, '') || '/';
  const params = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  if (path === '/') return { name: 'triggers' };
  if (path === '/invocations') return { name: 'invocations', params };
  if (path.startsWith('/invocations/')) {
    try {
      return { name: 'invocation', id: decodeURIComponent(path.slice('/invocations/'.length)) };
    } catch {
      return { name: 'not-found', path };
    }
  }
  if (path === '/failures') return { name: 'failures' };
  if (path === '/send') return { name: 'send' };
  if (path === '/timeline') return { name: 'timeline' };
  return { name: 'not-found', path };
}

export function invocationHref(id: string): string {
  return `#/invocations/${encodeURIComponent(id)}`;
}

let listHash = '#/invocations';

/** The invocation list as last shown (with its filters), where Esc on a detail goes back to. */
export function lastListHref(): string {
  return listHash;
}

export function go(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}

/** The current route, and a way to replace the list's filters without a history entry. */
export function useRoute(): [Route, (params: URLSearchParams) => void] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = (): void => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const route = parseHash(hash);
  if (route.name === 'invocations') listHash = hash || '#/invocations';
  const setParams = (params: URLSearchParams): void => {
    const query = params.toString();
    const next = `#/invocations${query ? `?${query}` : ''}`;
    history.replaceState(history.state, '', next);
    setHash(next);
  };
  return [route, setParams];
}
