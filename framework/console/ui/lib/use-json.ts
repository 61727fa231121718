/**
 * A GET of JSON for a view: the data (kept while a reload runs, so nothing flickers), the error
 * text, the HTTP status of a failed answer (a detail's 404), and reload(). Changing `path` starts
 * over; changing `refresh` fetches again.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, isAbort } from './api.ts';

export interface JsonState<T> {
  data: T | null;
  error: string | null;
  status: number | null;
  loading: boolean;
  /** Epoch ms of the last good answer. */
  at: number | null;
  reload: () => void;
}

export function useJson<T>(path: string, refresh?: unknown): JsonState<T> {
  const [state, setState] = useState<Omit<JsonState<T>, 'reload'>>({
    data: null,
    error: null,
    status: null,
    loading: true,
    at: null,
  });
  const [nonce, setNonce] = useState(0);
  const lastPath = useRef(path);

  useEffect(() => {
    const abort = new AbortController();
    const samePath = lastPath.current === path;
    lastPath.current = path;
    setState((s) => (samePath ? { ...s, loading: true } : { data: null, error: null, status: null, loading: true, at: null }));
    getJson<T>(path, abort.signal)
      .then((data) => setState({ data, error: null, status: 200, loading: false, at: Date.now() }))
      .catch((err: unknown) => {
        if (isAbort(err)) return;
        const status = err instanceof ApiError ? err.status : null;
        setState((s) => ({ ...s, error: errorText(err), status, loading: false }));
      });
    return () => abort.abort();
  }, [path, refresh, nonce]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { ...state, reload };
}
