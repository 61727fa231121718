/**
 * The console's memory of invocations: a ring buffer per function of the last `size`
 * invocations (their summaries, log lines, answers), and the records each ran with, which the
 * event detail is built from on request. Records are what can be large, so they are kept within
 * one byte budget for the whole history: past it, the oldest invocations' records are dropped
 * (their summaries stay, saying so). Log lines are bounded per invocation in count and length.
 * Memory is therefore at most `eventBytes` of records plus, per entry, 500 lines of 8 KiB.
 */
import type { EventSource } from '../event/build-event.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { InvokeError } from '../invoke/types.ts';
import { printable } from '../observe/printable.ts';
import type { InvocationSummary, LogLine, Outcome } from './api-types.ts';

export const HISTORY_DEFAULTS = { size: 200, eventBytes: 8 * 1024 * 1024, logLines: 500, logLineBytes: 8 * 1024, responseBytes: 256 * 1024 } as const;
export type HistoryLimits = { [K in keyof typeof HISTORY_DEFAULTS]: number };

export interface Invocation extends InvocationSummary {
  records: readonly KafkaRecord[] | undefined;
  source: EventSource;
  bytes: number;
  eventDropped?: string;
  logs: LogLine[];
  logsTruncated?: boolean;
  response?: unknown;
  errorDetail?: InvokeError;
}

export interface InvocationStart {
  functionName: string;
  records: readonly KafkaRecord[];
  source: EventSource;
  requestId: string;
  attempt?: number;
  replay?: boolean;
}

let nextId = 1;

export class InvocationHistory {
  readonly limits: HistoryLimits;
  private readonly rings = new Map<string, Invocation[]>();
  private readonly byRequest = new Map<string, Invocation>();
  /** Entries holding records, oldest first: the byte budget drops from the front. */
  private readonly holding: Invocation[] = [];
  private heldBytes = 0;
  private readonly listeners = new Set<(i: Invocation) => void>();

  constructor(limits: Partial<HistoryLimits> = {}, private readonly now = Date.now) {
    this.limits = { ...HISTORY_DEFAULTS, ...limits };
  }

  start(s: InvocationStart): Invocation {
    const first = s.records[0];
    const last = s.records[s.records.length - 1];
    const bytes = s.records.reduce((n, r) => n + recordBytes(r), 0);
    const entry: Invocation = {
      id: `${nextId++}`, function: s.functionName, topic: first?.topic ?? '', partition: first?.partition ?? -1,
      firstOffset: first?.offset ?? -1, lastOffset: last?.offset ?? -1, count: s.records.length, attempt: s.attempt ?? 1, startedAt: this.now(), outcome: 'running',
      requestId: s.requestId, keys: s.records.slice(0, 5).map((r) => (r.key === null ? '' : printable(r.key.toString('utf8').slice(0, 200)))),
      ...(s.replay ? { replay: true } : {}), records: s.records, source: s.source, bytes, logs: [],
    };
    const ring = this.rings.get(s.functionName) ?? this.rings.set(s.functionName, []).get(s.functionName)!;
    ring.push(entry);
    if (ring.length > this.limits.size) this.forget(ring.shift()!);
    this.byRequest.set(s.requestId, entry);
    this.holding.push(entry);
    this.heldBytes += bytes;
    while (this.heldBytes > this.limits.eventBytes && this.holding.length > 1) {
      const old = this.holding.shift()!;
      this.heldBytes -= old.bytes;
      old.records = undefined;
      old.eventDropped = `its records were dropped to keep the console's history within ${Math.round(this.limits.eventBytes / 1048576)} MiB of events`;
    }
    this.changed(entry);
    return entry;
  }

  /** The invocation ended: its outcome, and what the poller learned of it (attempt, a reported failure). */
  end(entry: Invocation, r: { ok: boolean; durationMs: number; payload?: unknown; error?: InvokeError; requestId?: string }): void {
    this.byRequest.delete(entry.requestId!);
    // The lambda invoker reports Lambda's own request id: the poller's events name that one.
    if (r.requestId) entry.requestId = r.requestId;
    entry.durationMs = r.durationMs;
    entry.outcome = r.ok ? 'ok' : 'failed';
    if (r.ok) entry.response = boundedResponse(r.payload, this.limits.responseBytes);
    if (r.error) {
      entry.errorDetail = r.error;
      entry.error = `${r.error.name}: ${r.error.message.split('\n')[0]!.slice(0, 500)}`;
    }
    this.changed(entry);
  }

  /** The poller's view of a chunk it just ran: which attempt, and a ReportBatchItemFailures answer. */
  annotate(requestId: string | undefined, a: { attempt: number; reportedFailedFrom?: number }): void {
    const entry = this.find(requestId);
    if (!entry) return;
    entry.attempt = a.attempt;
    if (a.reportedFailedFrom !== undefined) {
      entry.reportedFailedFrom = a.reportedFailedFrom;
      entry.outcome = 'partial' satisfies Outcome;
    }
    this.changed(entry);
  }

  /** A line the handler wrote during the invocation `requestId`. */
  log(requestId: string | undefined, level: LogLine['level'], text: string): void {
    const entry = requestId === undefined ? undefined : this.byRequest.get(requestId);
    if (!entry) return;
    if (entry.logs.length >= this.limits.logLines) return void (entry.logsTruncated = true);
    const cut = text.length > this.limits.logLineBytes;
    if (cut) entry.logsTruncated = true;
    entry.logs.push({ t: this.now(), level, text: cut ? text.slice(0, this.limits.logLineBytes) + '…' : text });
  }

  get(id: string): Invocation | undefined {
    for (const ring of this.rings.values()) for (const e of ring) if (e.id === id) return e;
    return undefined;
  }

  /** Newest first. */
  list(f: { function?: string; partition?: number; outcome?: string; key?: string; limit?: number } = {}): Invocation[] {
    const all = [...this.rings.entries()].filter(([fn]) => !f.function || fn === f.function).flatMap(([, ring]) => ring);
    const kept = all.filter(
      (e) => (f.partition === undefined || e.partition === f.partition) && (!f.outcome || e.outcome === f.outcome) && (!f.key || e.keys.some((k) => k.includes(f.key!))),
    );
    return kept.sort((a, b) => b.startedAt - a.startedAt || Number(b.id) - Number(a.id)).slice(0, f.limit ?? this.limits.size);
  }

  /** Called with each invocation as it starts and changes (summaryOf() gives what a page is sent); returns the unsubscribe. */
  subscribe(listener: (i: Invocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What the history holds now (for the docs' bound and the tests). */
  usage(): { entries: number; eventBytes: number } {
    return { entries: [...this.rings.values()].reduce((n, r) => n + r.length, 0), eventBytes: this.heldBytes };
  }

  private find(requestId: string | undefined): Invocation | undefined {
    if (requestId === undefined) return undefined;
    const running = this.byRequest.get(requestId);
    if (running) return running;
    for (const ring of this.rings.values()) for (let i = ring.length - 1; i >= 0; i--) if (ring[i]!.requestId === requestId) return ring[i];
    return undefined;
  }

  private forget(e: Invocation): void {
    this.byRequest.delete(e.requestId!);
    const i = this.holding.indexOf(e);
    if (i >= 0) {
      this.holding.splice(i, 1);
      this.heldBytes -= e.bytes;
    }
  }

  private changed(e: Invocation): void {
    for (const l of this.listeners) l(e);
  }
}

export function summaryOf(e: Invocation): InvocationSummary {
  const { records: _r, source: _s, bytes: _b, eventDropped: _d, logs: _l, logsTruncated: _t, response: _p, errorDetail: _e, ...summary } = e;
  return summary;
}

function recordBytes(r: KafkaRecord): number {
  let n = 64 + (r.key?.length ?? 0) + (r.value?.length ?? 0);
  for (const [name, value] of r.headers) n += 32 + name.length + (value?.length ?? 0);
  return n;
}

function boundedResponse(payload: unknown, limit: number): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    return '(the response is not JSON)';
  }
  if (text === undefined) return null;
  return text.length <= limit ? payload : `(the response is ${text.length} characters of JSON; the console keeps at most ${limit})`;
}
