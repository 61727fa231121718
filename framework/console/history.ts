/**
 * The console's memory of invocations: a ring buffer per function of the last `size`
 * invocations (their summaries, log lines, answers), and the records each ran with, which the
 * event detail is built from on request (packed into one buffer of their own once the invocation
 * ends, so that a kept record holds neither the whole fetch response it was read from nor an object
 * per record). Records are what can be large, so
 * they are kept within one byte budget for the whole history: past it, the oldest invocations'
 * records are dropped (their summaries stay, saying so). Past 10 invocations a second of one
 * function (`eventsPerSecond`), only the first 10 of each second and those that failed keep theirs,
 * and with no page open only those are listed at all (the others counted: unlistedCounts); with a
 * page open, the first 50 a second (`listedPerSecond`) and every failure. What the handler
 * said (log lines, its answer, its error) is bounded per invocation (500 lines of 8 KiB, a 256 KiB
 * answer, 16 KiB of error message and of stack) and within a second budget for the whole history,
 * `detailBytes`, past which the oldest invocations lose their lines and answer the same way.
 * Memory: at most eventBytes + detailBytes, plus the summaries (200 per function, each with up to
 * 5 keys of 200 characters).
 */
import type { EventSource } from '../event/build-event.ts';
import type { KafkaRecord } from '../event/record.ts';
import { packRecords, unpackRecords, type PackedRecords } from '../invoke/record-transfer.ts';
import type { InvokeError } from '../invoke/types.ts';
import { printable } from '../observe/printable.ts';
import type { InvocationSummary, LogLine } from './api-types.ts';

/**
 * `eventsPerSecond`: past this many invocations a second of one function, one that succeeded keeps
 * its summary, lines and answer but not its records. A kept event is copied out of its fetch
 * response (packed), which only a few a second can afford: copying every invocation's records cost
 * the poller 25% more CPU per record (bench: console, batchSize 1000), the first 50 a second 1.5–2%
 * at a firehose of 1,800 invocations a second (side by side, 2026-12-06), for events no one reads
 * at that rate. With no page open, a success past the rate is not listed either: at a firehose a
 * ring of 200 holds a tenth of a second, which no one sees, and listing each cost the poller about
 * 4 µs of CPU (its ring, a copy of its first five keys, its answer's JSON): all the console does per
 * invocation went from 6.4–7.6 µs to 3.1–3.6 (bench/console-bookkeeping.ts). `listedPerSecond`: with a page
 * open, past this many a second a success is counted, not listed, either: listing every one was
 * the cost of serving a page (bench/console-serving.ts at 200 a second of 1,000 records: +27 and
 * +39 ms of the poller's CPU a second with every one listed, −3 to +14 with 50), and the ring
 * of 200 then spans four seconds of a firehose (with every one listed, a tenth of one at 1,800 a
 * second). A local loop runs a few invocations a second: all are listed and keep their events. `eventBytesPerSecond`: past the first kept event of a
 * second, the successes' events kept that second hold at most this many bytes of records: at
 * batchSize 1000, ten events a second were 3.3 MB a second of copies held for seconds, which cost
 * the poller more garbage collection than all the rest of the console (side by side, 2026-12-06).
 */
export const HISTORY_DEFAULTS = { size: 200, eventsPerSecond: 10, listedPerSecond: 50, eventBytesPerSecond: 256 * 1024, eventBytes: 8 * 1024 * 1024, detailBytes: 8 * 1024 * 1024, logLines: 500, logLineBytes: 8 * 1024, responseBytes: 256 * 1024, errorBytes: 16 * 1024 } as const;
export type HistoryLimits = { [K in keyof typeof HISTORY_DEFAULTS]: number };

/**
 * `keys` is decoded when a summary is asked for, and kept: not on the poller's path for every
 * invocation. Records let go first leave the raw bytes of their first five keys (`keyBytes`, a copy).
 */
export interface Invocation extends Omit<InvocationSummary, 'keys'> {
  keys?: string[];
  keyBytes?: ReadonlyArray<Buffer | null>;
  /** The poller's records while it runs (views into their fetch response), until the history holds or drops them. */
  records: readonly KafkaRecord[] | undefined;
  /** The records held once it ended, packed (eventOf() unpacks them): one byte buffer and a numeric index, no object per record. */
  held: PackedRecords | undefined;
  source: EventSource;
  bytes: number;
  /** Bytes of its lines, answer and error (the detail budget). */
  detailBytes: number;
  eventDropped?: string;
  detailDropped?: string;
  logs: LogLine[];
  logsTruncated?: boolean;
  response?: unknown;
  errorDetail?: InvokeError;
  /** Pushed out of its ring: nothing of it enters a budget again (a replay still running, say). */
  gone?: true;
  /** Started past eventsPerSecond, within listedPerSecond, with a page open (or running quiet when one opened): listed, its records kept only if it fails. */
  pastRate?: true;
  /** Started past eventsPerSecond with no page open, or past listedPerSecond with one: not listed (in no ring), only running; listed after all if it fails, or if a page opens while it runs. */
  quiet?: true;
}

/** How the poller read a successful invocation's answer (ReportBatchItemFailures): records it failed, or an answer it could not read (all failed). */
export interface AnswerReading {
  reportedFailedFrom?: number;
  malformedResponse?: string;
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
  /**
   * The invocations running now, few (the pollers' concurrency): found by request id with a scan.
   * Not a map, nor sets below for what is transient: a key added and deleted on every invocation
   * churns a hash table's storage thousands of times a second at a firehose.
   */
  private readonly running: Invocation[] = [];
  /**
   * Entries holding records, oldest first: the byte budget drops from the front. Sets, not arrays:
   * an entry pushed out of its ring leaves them in O(1) (forget()'s indexOf and splice, with a
   * WeakSet of the gone, were the history's largest self time at a firehose, profiled).
   */
  private readonly holding = new Set<Invocation>();
  private heldBytes = 0;
  /** Entries holding lines, an answer or an error, oldest first, and their bytes. */
  private readonly detailed = new Set<Invocation>();
  private detailHeld = 0;
  private readonly listeners = new Set<(i: Invocation) => void>();
  /** Per function, the second being counted and how many invocations (replays aside) started in it. */
  private readonly perSecond = new Map<string, { second: number; started: number; bytes: number }>();
  private readonly pastRateReasons = new Map<string, string>();
  /** Per function, how many quiet invocations succeeded and were not listed. */
  private readonly unlistedBy = new Map<string, { n: number }>();

  constructor(limits: Partial<HistoryLimits> = {}, private readonly now = Date.now) {
    this.limits = { ...HISTORY_DEFAULTS, ...limits };
  }

  /**
   * An invocation starts. Past eventsPerSecond of its function this second with no page open, or
   * past listedPerSecond with one, it is quiet: not listed unless it fails (a success past the rate
   * would push an older one out of a ring no one reads, and cost the poller the bookkeeping of each).
   */
  start(s: InvocationStart): Invocation {
    const first = s.records[0];
    const last = s.records[s.records.length - 1];
    const nth = s.replay ? 0 : this.thisSecond(s.functionName).started++;
    const underRate = s.replay || nth < this.limits.eventsPerSecond;
    const quiet = !underRate && (this.listeners.size === 0 || nth >= this.limits.listedPerSecond);
    // Every field it will ever have, from the start: one shape, no property store grown later.
    const entry: Invocation = {
      id: `${nextId++}`, function: s.functionName, topic: first?.topic ?? '', partition: first?.partition ?? -1,
      firstOffset: first?.offset ?? -1, lastOffset: last?.offset ?? -1, count: s.records.length, attempt: s.attempt ?? 1, startedAt: this.now(), outcome: 'running',
      requestId: s.requestId, replay: s.replay || undefined, durationMs: undefined, error: undefined, reportedFailedFrom: undefined,
      keys: undefined, keyBytes: undefined, records: s.records, held: undefined, source: s.source, bytes: 0, detailBytes: 0, eventDropped: undefined, detailDropped: undefined,
      logs: [], logsTruncated: undefined, response: undefined, errorDetail: undefined, gone: undefined, pastRate: underRate || quiet ? undefined : true, quiet: quiet || undefined,
    };
    this.running.push(entry);
    if (quiet) return entry;
    this.listed(entry);
    this.changed(entry);
    return entry;
  }

  /**
   * The invocation ended: its outcome, with the poller's reading of its answer (a partial batch
   * response, or one it could not read: the whole chunk failed). Not told for a replay, which no
   * poller reads.
   */
  end(entry: Invocation, r: { ok: boolean; durationMs: number; payload?: unknown; error?: InvokeError; requestId?: string }, reading: AnswerReading = {}): void {
    this.stopped(entry);
    // The lambda invoker reports Lambda's own request id: the poller's events name that one.
    if (r.requestId) entry.requestId = r.requestId;
    entry.durationMs = r.durationMs;
    entry.outcome = !r.ok || reading.malformedResponse !== undefined ? 'failed' : reading.reportedFailedFrom !== undefined ? 'partial' : 'ok';
    if (reading.malformedResponse !== undefined) entry.error = bounded(reading.malformedResponse, 500);
    if (reading.reportedFailedFrom !== undefined) entry.reportedFailedFrom = reading.reportedFailedFrom;
    if (entry.quiet) {
      if (entry.outcome === 'ok') return this.unlisted(entry);
      this.listQuiet(entry); // it failed: listed after all, with its records, lines and answer
    }
    // Running, its records were the poller's anyway; ended, the history holds them within its
    // budget, but not those of a success past the rate, nor past this second's bytes of events.
    if (entry.records) {
      // Sized once, and only when it may be kept (a success past the rate is not).
      const limited = entry.outcome === 'ok' && !entry.replay;
      const bytes = limited && entry.pastRate ? 0 : eventBytes(entry.records);
      if (limited && (entry.pastRate || !this.withinEventBytes(entry.function, bytes))) {
        letGo(entry);
        entry.eventDropped = this.pastRateReason(entry.function);
      } else this.hold(entry, bytes);
    }
    entry.pastRate = undefined;
    if (r.ok) {
      const kept = boundedResponse(r.payload, this.limits.responseBytes);
      entry.response = kept.value;
      if (kept.bytes > 0) this.account(entry, kept.bytes);
    }
    if (r.error) {
      const cut = this.limits.errorBytes;
      entry.errorDetail = { kind: r.error.kind, name: bounded(r.error.name, 200), message: bounded(r.error.message, cut), ...(r.error.stack !== undefined ? { stack: bounded(r.error.stack, cut) } : {}) };
      entry.error = `${entry.errorDetail.name}: ${bounded(r.error.message.split('\n')[0]!, 500)}`;
      this.account(entry, entry.errorDetail.message.length + (entry.errorDetail.stack?.length ?? 0));
    }
    this.changed(entry);
  }

  /** The running invocation `requestId` (the id it was started with) ended: as end(). Gone from the history meanwhile (pushed out of its ring), it is not told. */
  ended(requestId: string, r: Parameters<InvocationHistory['end']>[1], reading?: AnswerReading): void {
    const entry = this.runningOne(requestId);
    if (entry) this.end(entry, r, reading);
  }

  /** Successful invocations of each function that ran quiet (past eventsPerSecond with no page open, past listedPerSecond with one) and were not listed. */
  unlistedCounts(): Record<string, number> {
    return Object.fromEntries([...this.unlistedBy].map(([fn, c]) => [fn, c.n]));
  }

  /** A line the handler wrote during the invocation `requestId`. */
  log(requestId: string | undefined, level: LogLine['level'], text: string): void {
    const entry = this.runningOne(requestId);
    if (!entry) return;
    if (entry.logs.length >= this.limits.logLines) return void (entry.logsTruncated = true);
    const cut = text.length > this.limits.logLineBytes;
    if (cut) entry.logsTruncated = true;
    const line = cut ? text.slice(0, this.limits.logLineBytes) + '…' : text;
    if (entry.quiet) return this.quietLine(entry, level, line);
    entry.logs.push({ t: this.now(), level, text: line });
    this.account(entry, line.length + 32);
  }

  get(id: string): Invocation | undefined {
    for (const ring of this.rings.values()) for (const e of ring) if (e.id === id) return e;
    return undefined;
  }

  /** Newest first. */
  list(f: { function?: string; partition?: number; outcome?: string; key?: string; limit?: number } = {}): Invocation[] {
    const all = [...this.rings.entries()].filter(([fn]) => !f.function || fn === f.function).flatMap(([, ring]) => ring);
    const key = f.key?.trim().toLowerCase();
    const kept = all.filter(
      (e) => (f.partition === undefined || e.partition === f.partition) && (!f.outcome || e.outcome === f.outcome) && (!key || keysOf(e).some((k) => k.toLowerCase().includes(key))),
    );
    return kept.sort((a, b) => b.startedAt - a.startedAt || Number(b.id) - Number(a.id)).slice(0, f.limit ?? this.limits.size);
  }

  /** Called with each invocation as it starts and changes (summaryOf() gives what a page is sent); returns the unsubscribe. */
  subscribe(listener: (i: Invocation) => void): () => void {
    this.listeners.add(listener);
    // A page opens: those running quiet are listed now, as if started with it open (past the rate:
    // records kept only if they fail), so it sees every invocation in flight and how each ends;
    // at most a ring's worth of a function, the newest (the older ones would be pushed out at once,
    // their ends never recorded): the rest stay quiet, listed if they fail, counted if not.
    // (A copy: listing one may push a running one out of its ring, and out of `running`.)
    const taken = new Map<string, number>();
    const newest = this.running
      .filter((r) => r.quiet)
      .sort((a, b) => Number(b.id) - Number(a.id))
      .filter((r) => {
        const n = (taken.get(r.function) ?? 0) + 1;
        taken.set(r.function, n);
        return n <= this.limits.size;
      });
    for (const e of newest.reverse()) {
      this.listQuiet(e);
      e.pastRate = true;
      this.changed(e);
    }
    return () => this.listeners.delete(listener);
  }

  /** What the history holds now (for the docs' bound and the tests). */
  usage(): { entries: number; eventBytes: number } {
    return { entries: [...this.rings.values()].reduce((n, r) => n + r.length, 0), eventBytes: this.heldBytes };
  }

  private runningOne(requestId: string | undefined): Invocation | undefined {
    if (requestId === undefined) return undefined;
    for (const e of this.running) if (e.requestId === requestId) return e;
    return undefined;
  }

  /** `e` no longer runs (ended, or pushed out of its ring): no line lands on it. */
  private stopped(e: Invocation): void {
    const i = this.running.indexOf(e);
    if (i < 0) return;
    this.running[i] = this.running[this.running.length - 1]!;
    this.running.pop();
  }

  /** Why a successful invocation of `fn` past the rate has no event: one string per function, not one per invocation. */
  private pastRateReason(fn: string): string {
    let reason = this.pastRateReasons.get(fn);
    if (reason === undefined) {
      const n = this.limits.eventsPerSecond;
      reason = `its records were not kept: ${fn} ran more than ${n} invocations (or ${sizeText(this.limits.eventBytesPerSecond)} of records) a second, and the console keeps the events of the first ${n} each second within that size, and of every one that failed`;
      this.pastRateReasons.set(fn, reason);
    }
    return reason;
  }

  /** Whether a success's event of `bytes` fits in this second's eventBytesPerSecond of `fn` (the first of a second always does). */
  private withinEventBytes(fn: string, bytes: number): boolean {
    const k = this.thisSecond(fn);
    if (k.bytes > 0 && k.bytes + bytes > this.limits.eventBytesPerSecond) return false;
    k.bytes += bytes;
    return true;
  }

  private thisSecond(fn: string): { second: number; started: number; bytes: number } {
    const second = Math.floor(this.now() / 1000);
    let k = this.perSecond.get(fn);
    if (!k || k.second !== second) this.perSecond.set(fn, (k = { second, started: 0, bytes: 0 }));
    return k;
  }

  /**
   * A line of an invocation running quiet: in the detail budget too (many may run at once), but not
   * among those the budget drops lines of (a set written per invocation) unless it is listed:
   * listed invocations' lines go first; should the lines of those running quiet fill the budget
   * alone, this one is not kept.
   */
  private quietLine(entry: Invocation, level: LogLine['level'], line: string): void {
    const bytes = line.length + 32;
    this.detailHeld += bytes;
    this.trimDetail(0);
    if (this.detailHeld > this.limits.detailBytes) {
      this.detailHeld -= bytes;
      entry.logsTruncated = true;
      return;
    }
    entry.detailBytes += bytes;
    entry.logs.push({ t: this.now(), level, text: line });
  }

  /** Into its function's ring, the oldest pushed out past `size`. */
  private listed(e: Invocation): void {
    const ring = this.rings.get(e.function) ?? this.rings.set(e.function, []).get(e.function)!;
    ring.push(e);
    if (ring.length > this.limits.size) this.forget(ring.shift()!);
  }

  /** A quiet invocation listed after all (it failed, or a page opened): into its ring, and among those the detail budget drops lines of (its bytes counted already: quietLine). */
  private listQuiet(e: Invocation): void {
    e.quiet = undefined;
    this.listed(e);
    if (e.detailBytes > 0) this.detailed.add(e);
  }

  /** A quiet invocation that succeeded: counted, and nothing of it kept. */
  private unlisted(e: Invocation): void {
    let c = this.unlistedBy.get(e.function);
    if (!c) this.unlistedBy.set(e.function, (c = { n: 0 }));
    c.n++;
    this.detailHeld -= e.detailBytes;
    e.detailBytes = 0;
    e.records = undefined;
    e.logs = [];
    e.gone = true;
  }

  /** `e`'s records into the byte budget; past it, the oldest invocations' records go. */
  private hold(e: Invocation, bytes = eventBytes(e.records!)): void {
    if (e.gone) return;
    const records = e.records!;
    e.bytes = bytes;
    if (e.bytes === 0) return; // no records: nothing to drop (forget() looks for those with bytes)
    e.held = packRecords(records);
    e.records = undefined;
    this.holding.add(e);
    this.heldBytes += e.bytes;
    while (this.heldBytes > this.limits.eventBytes && this.holding.size > 1) {
      const old = oldest(this.holding);
      this.heldBytes -= old.bytes;
      letGo(old);
      old.eventDropped = `its records were dropped to keep the console's history within ${sizeText(this.limits.eventBytes)} of events`;
    }
  }

  /** `bytes` more of what the handler said, on `e`; past the budget, the oldest invocations' lines and answers go first. */
  private account(e: Invocation, bytes: number): void {
    if (e.gone || bytes === 0) return;
    if (e.detailBytes === 0) this.detailed.add(e);
    e.detailBytes += bytes;
    this.detailHeld += bytes;
    this.trimDetail(1);
  }

  /** Past the detail budget, the oldest invocations lose their lines and answer, all but the newest `spare` of those holding some. */
  private trimDetail(spare: number): void {
    while (this.detailHeld > this.limits.detailBytes && this.detailed.size > spare) {
      const old = oldest(this.detailed);
      this.detailHeld -= old.detailBytes;
      old.detailBytes = 0;
      old.logs = [];
      old.response = undefined;
      if (old.errorDetail) old.errorDetail = { kind: old.errorDetail.kind, name: old.errorDetail.name, message: bounded(old.errorDetail.message, 500) };
      old.logsTruncated = true;
      old.detailDropped = `its lines and answer were dropped to keep what handlers said within ${sizeText(this.limits.detailBytes)}`;
    }
  }

  private forget(e: Invocation): void {
    const running = e.outcome === 'running';
    if (running) this.stopped(e);
    // Most hold no records (past the rate) and some no lines: no lookup for those.
    if (e.detailBytes > 0 && this.detailed.delete(e)) this.detailHeld -= e.detailBytes;
    if (e.bytes > 0 && this.holding.delete(e)) this.heldBytes -= e.bytes;
    // Out of the ring, no one asks for its event again; a replay's caller still shows it (server.ts).
    e.pastRate = undefined;
    e.gone = true;
    // Out of every list: no summary of it is asked for again.
    if (!e.replay) {
      e.records = undefined;
      e.held = undefined;
    }
    // A page told it runs is never told how it ends: told it is gone instead.
    if (running) this.changed(e);
  }

  private changed(e: Invocation): void {
    // No page open, no listener: not even an iterator, three times per invocation.
    if (this.listeners.size === 0) return;
    for (const l of this.listeners) l(e);
  }
}

export function summaryOf(e: Invocation): InvocationSummary {
  const { records: _r, held: _h, source: _s, bytes: _b, detailBytes: _db, eventDropped: _d, detailDropped: _dd, logs: _l, logsTruncated: _t, response: _p, errorDetail: _e, keys: _k, keyBytes: _kb, gone: _g, pastRate: _pr, quiet: _q, ...summary } = e;
  return { ...summary, keys: firstKeys(e) };
}

/** The first of a set's entries, taken out of it. */
function oldest(entries: Set<Invocation>): Invocation {
  const first = entries.values().next().value!;
  entries.delete(first);
  return first;
}

/** A key as the page shows it: UTF-8, printable, at most 200 characters. */
function keyText(r: Pick<KafkaRecord, 'key'>): string {
  return r.key === null ? '' : printable(r.key.subarray(0, KEY_BYTES).toString('utf8').slice(0, 200));
}

/** Bytes of a key read for its text: 200 characters of UTF-8 at most. */
const KEY_BYTES = 800;

/**
 * Every key of an invocation, for the key filter: read from its records when asked (not on the
 * poller's path for every record), or the summary's first five once the records were dropped.
 */
function keysOf(e: Invocation): string[] {
  return eventOf(e)?.map(keyText) ?? firstKeys(e);
}

/** The five keys a summary shows, decoded once. */
function firstKeys(e: Invocation): string[] {
  if (!e.keys) {
    e.keys = (eventOf(e, 5)?.slice(0, 5) ?? (e.keyBytes ?? []).map((key) => ({ key }))).map(keyText);
    e.keyBytes = undefined;
  }
  return e.keys;
}

/** Drops `e`'s records, keeping the bytes of the five keys its summary shows. */
function letGo(e: Invocation): void {
  const first = e.keys ? undefined : eventOf(e, 5);
  if (first) e.keyBytes = keyCopies(first);
  e.records = undefined;
  e.held = undefined;
}

/**
 * The records an invocation ran with, as far as the history still has them: the poller's own while
 * it runs, an unpacked copy once held (each call a new one; `first`: only that many built), none
 * once dropped.
 */
export function eventOf(e: Pick<Invocation, 'records' | 'held'>, first?: number): readonly KafkaRecord[] | undefined {
  return e.held ? unpackRecords(e.held, first) : e.records;
}

/** Five keys without a byte (none, or empty), as letGo keeps them: shared, their text is '' either way. */
const NO_KEY_BYTES = [0, 1, 2, 3, 4, 5].map((n) => Object.freeze(Array<null>(n).fill(null)));

/** The bytes of the first five keys, copied into one buffer: a key is a view into its fetch response. */
function keyCopies(records: readonly KafkaRecord[]): ReadonlyArray<Buffer | null> {
  const n = Math.min(records.length, 5);
  let size = 0;
  for (let i = 0; i < n; i++) size += Math.min(records[i]!.key?.length ?? 0, KEY_BYTES);
  if (size === 0) return NO_KEY_BYTES[n]!;
  const into = Buffer.allocUnsafe(size);
  const copies: Array<Buffer | null> = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const key = records[i]!.key;
    const end = at + (key ? key.copy(into, at, 0, Math.min(key.length, KEY_BYTES)) : 0);
    copies.push(key ? into.subarray(at, end) : null);
    at = end;
  }
  return copies;
}

function sizeText(bytes: number): string {
  return bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function bounded(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters not kept)`;
}

function eventBytes(records: readonly KafkaRecord[]): number {
  let n = 0;
  for (const r of records) n += recordBytes(r);
  return n;
}

function recordBytes(r: KafkaRecord): number {
  let n = 64 + (r.key?.length ?? 0) + (r.value?.length ?? 0);
  for (const [name, value] of r.headers) n += 32 + name.length + (value?.length ?? 0);
  return n;
}

const NO_RESPONSE = { value: null, bytes: 0 } as const;

/** What is kept of an answer, and its size in the detail budget. */
function boundedResponse(payload: unknown, limit: number): { value: unknown; bytes: number } {
  if (payload === undefined || payload === null) return NO_RESPONSE;
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    return { value: '(the response is not JSON)', bytes: 32 };
  }
  if (text === undefined) return { value: null, bytes: 0 };
  return text.length <= limit ? { value: payload, bytes: text.length } : { value: `(the response is ${text.length} characters of JSON; the console keeps at most ${limit})`, bytes: 100 };
}
