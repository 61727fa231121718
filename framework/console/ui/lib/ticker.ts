/**
 * The server's clock on the page: elapsed times are computed as Date.now() + offset, where offset
 * is overview.now - Date.now() taken at each overview. useTicker re-renders its component every
 * 250 ms through one shared interval, which runs only while some component (an in-flight chunk)
 * listens.
 */
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

export function useTicker(): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = (): void => setTick((n) => n + 1);
    listeners.add(listener);
    timer ??= setInterval(() => listeners.forEach((l) => l()), 250);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
}

export function serverNow(offset: number): number {
  return Date.now() + offset;
}
