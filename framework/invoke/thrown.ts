/** What an invoker that threw instead of answering is told as: an InvokeError from whatever was thrown (null has no name). */
import type { InvokeError } from './types.ts';

export function thrownError(e: unknown): InvokeError {
  const error = e as { name?: unknown; message?: unknown } | null | undefined;
  return { kind: 'error', name: typeof error?.name === 'string' ? error.name : 'Error', message: typeof error?.message === 'string' ? error.message : String(e) };
}
