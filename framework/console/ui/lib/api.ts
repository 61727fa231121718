/**
 * The page's calls to the console server: GETs of JSON, and POSTs carrying the page's token (from
 * the shell's `<meta name="sluice-token">`). A non-2xx answer becomes an ApiError holding the
 * server's `{ error }` text, which the views show as it is.
 */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function token(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="sluice-token"]')?.content ?? '';
}

async function answer<T>(res: Response): Promise<T> {
  if (res.ok) return (await res.json()) as T;
  let message = `${res.status} ${res.statusText}`.trim();
  try {
    const body = (await res.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error !== '') message = body.error;
  } catch {
    // not JSON: the status line says enough
  }
  throw new ApiError(message, res.status);
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError('Could not reach the console server (is the poller still running?)', 0);
  }
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return answer<T>(await send(path, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) }));
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await send(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-sluice-token': token() },
    body: JSON.stringify(body),
  });
  return answer<T>(res);
}

/** An error's text for the page. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
