/**
 * A send the caller may give up on: `work` goes on (neither kafkajs nor librdkafka can call a write
 * back), but the caller's promise rejects the moment `signal` aborts, with its reason.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const giveUp = () => {
      onAbort?.();
      reject(abortReason(signal));
    };
    if (signal.aborted) return giveUp();
    signal.addEventListener('abort', giveUp, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', giveUp));
  });
}

/** The signal's reason when it is an Error (Delivery's deadline), else an AbortError saying `what`. */
export function abortReason(signal: AbortSignal | undefined, what = 'the send was given up on'): Error {
  return signal?.reason instanceof Error ? signal.reason : new DOMException(what, 'AbortError');
}
