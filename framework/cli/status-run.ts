/**
 * `status` once or with --watch, for `npm run status` and `serverless sluice status`. Watching
 * redraws in place on a terminal (one JSON line per refresh with --json, or when not a
 * terminal) until `signal` aborts; a read that fails is shown and retried at the next refresh,
 * since a broker going away is what a watching operator wants to see.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.ts';
import { printable, printableJson } from '../observe/printable.ts';
import { formatStatus, type TriggerStatus } from './status-report.ts';

export const DEFAULT_WATCH_SECONDS = 2;

export interface StatusRun {
  read(): Promise<TriggerStatus[]>;
  write(text: string): void;
  json: boolean;
  /** Seconds between refreshes; undefined: read once. */
  watchSeconds: number | undefined;
  /** Redraw in place (a terminal). */
  tty: boolean;
  signal?: AbortSignal;
}

export async function runStatus(o: StatusRun): Promise<void> {
  if (o.watchSeconds === undefined) {
    const reports = await o.read();
    o.write(o.json ? printableJson(JSON.stringify(reports, null, 2)) : formatStatus(reports));
    return;
  }
  const redraw = o.tty && !o.json;
  while (!o.signal?.aborted) {
    const at = new Date();
    let text: string;
    try {
      const reports = await o.read();
      text = o.json ? printableJson(JSON.stringify({ at: at.toISOString(), triggers: reports })) : formatStatus(reports, at);
    } catch (e) {
      text = o.json ? printableJson(JSON.stringify({ at: at.toISOString(), error: message(e) })) : `sluice status at ${at.toISOString()}\n\ncannot read the groups: ${printable(message(e))}`;
    }
    if (o.signal?.aborted) return;
    // Home, clear the screen: the report replaces the last one instead of scrolling.
    o.write(redraw ? `\x1b[H\x1b[2J${text}\n\n(refreshing every ${o.watchSeconds} s; Ctrl-C to stop)` : text);
    await sleep(o.watchSeconds * 1000, undefined, o.signal ? { signal: o.signal } : {}).catch(() => undefined);
  }
}

/** `--watch` and `--interval <seconds>` as given → seconds between refreshes, or undefined (read once). */
export function watchSeconds(watch: boolean | undefined, interval: string | undefined): number | undefined {
  if (interval === undefined) return watch ? DEFAULT_WATCH_SECONDS : undefined;
  const n = Number(interval);
  if (!Number.isInteger(n) || n < 1 || n > 3600) throw new ConfigError(`--interval takes the seconds between refreshes of --watch, a whole number 1–3600 (default ${DEFAULT_WATCH_SECONDS}); got "${interval}".`);
  return n;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
