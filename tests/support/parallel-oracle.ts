/**
 * The per-key order oracle of parallelizationFactor (issue 28), for tests on a real broker. From
 * what the handler saw (harness.ts) and when each invocation ended (poller.chunk_end), it checks
 * that no two invocations holding the same key overlapped in time, and that a key's offsets were
 * invoked in increasing order, a retry (the same offsets again) allowed and counted.
 */
import { fileURLToPath } from 'node:url';
import type { Instrumentation } from '../../framework/observe/events.ts';
import { recordsOf, type Seen } from './harness.ts';
import { brokers, kafka, untilAnswered } from './kafka.ts';
import { runPythonJson } from './python.ts';


export interface Interval {
  requestId: string;
  start: number;
  end: number;
  ok: boolean;
}

/** Records each invocation's span (its end, less its duration) as the poller reports it. */
export function recordIntervals(events: Instrumentation): Map<string, Interval> {
  const spans = new Map<string, Interval>();
  events.on('poller.chunk_end', (e) => {
    const end = Date.now();
    if (e.requestId) spans.set(e.requestId, { requestId: e.requestId, start: end - e.durationMs, end, ok: e.ok });
  });
  return spans;
}

/**
 * The same spans from a poller process's output (SLUICE_LOG_FORMAT=json prints each
 * poller.chunk_end as a JSON line stamped with its time): for a poller run as a child process.
 */
export function intervalsFromOutput(output: string): Map<string, Interval> {
  const spans = new Map<string, Interval>();
  for (const line of output.split('\n')) {
    if (!line.includes('"poller.chunk_end"') || !line.endsWith('}')) continue; // a line cut short by kill -9
    const e = JSON.parse(line) as { event: string; time: string; requestId?: string; durationMs: number; ok: boolean };
    const end = Date.parse(e.time);
    if (e.event === 'poller.chunk_end' && e.requestId) spans.set(e.requestId, { requestId: e.requestId, start: end - e.durationMs, end, ok: e.ok });
  }
  return spans;
}

export interface OracleReport {
  keys: number;
  /** Two invocations of one key that ran at the same time. */
  overlaps: string[];
  /** A key's offset invoked after a higher one of the same key, not as a retry of the same offsets. */
  outOfOrder: string[];
  /** Invocations of offsets already invoked (retries of failed invocations). */
  retried: number;
  /** The most invocations that ran at once. */
  maxInFlight: number;
}

/** A record's ordering key as the oracle names it: null keys share one. */
export const keyOf = (r: { key?: string | null }) => r.key ?? '(null)';

export function checkKeyOrder(seen: readonly Seen[], spans: ReadonlyMap<string, Interval>): OracleReport {
  const byKey = new Map<string, Array<{ span: Interval; offsets: number[] }>>();
  for (const s of seen) {
    const span = spans.get(s.requestId);
    if (!span) continue; // not returned (yet)
    const offsetsByKey = new Map<string, number[]>();
    for (const r of recordsOf(s)) offsetsByKey.set(keyOf(r), [...(offsetsByKey.get(keyOf(r)) ?? []), r.offset]);
    for (const [k, offsets] of offsetsByKey) byKey.set(k, [...(byKey.get(k) ?? []), { span, offsets }]);
  }
  const overlaps: string[] = [];
  const outOfOrder: string[] = [];
  for (const [k, runs] of byKey) {
    runs.sort((a, b) => a.span.start - b.span.start);
    let highest = -1;
    const invoked = new Set<number>();
    for (let i = 0; i < runs.length; i++) {
      const { span, offsets } = runs[i]!;
      const prev = runs[i - 1];
      // A span is measured in the poller, around the invocation: 5 ms of slack for the event's own delay.
      if (prev && span.start < prev.span.end - 5) overlaps.push(`key ${k}: ${prev.span.requestId} and ${span.requestId}`);
      if (offsets.every((o) => invoked.has(o))) continue; // a retry of the same offsets
      if (offsets[0]! <= highest || offsets.some((o, j) => j > 0 && o <= offsets[j - 1]!)) outOfOrder.push(`key ${k}: ${offsets.join(',')} after ${highest}`);
      for (const o of offsets) invoked.add(o);
      highest = Math.max(highest, ...offsets);
    }
  }
  let retried = 0;
  const invoked = new Set<number>();
  for (const s of [...seen].filter((s) => spans.has(s.requestId)).sort((a, b) => spans.get(a.requestId)!.start - spans.get(b.requestId)!.start)) {
    const offsets = recordsOf(s).map((r) => r.offset);
    if (offsets.every((o) => invoked.has(o))) retried++;
    for (const o of offsets) invoked.add(o);
  }
  const edges = [...spans.values()].flatMap((s) => [{ t: s.start, d: 1 }, { t: s.end, d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let maxInFlight = 0;
  for (const e of edges) maxInFlight = Math.max(maxInFlight, (now += e.d));
  return { keys: byKey.size, overlaps, outOfOrder, retried, maxInFlight };
}

const COMMIT_METADATA = fileURLToPath(new URL('./commit_metadata.py', import.meta.url));

/**
 * The group's commit of the partition with its metadata, read with a plain kafkajs admin
 * (OffsetFetch); with `set`, first committed through librdkafka, as another client of the group
 * would. (confluent-kafka's Python reading of metadata is not used: it reads a string written
 * without C's NUL terminator past its end.)
 */
export async function committedMetadata(groupId: string, topic: string, partition: number, set?: { offset: number; metadata: string }): Promise<{ offset: number; metadata: string | null }> {
  if (set) await runPythonJson(COMMIT_METADATA, JSON.stringify({ brokers: brokers().join(','), groupId, topic, partition, ...set }), 'the librdkafka offset client');
  const admin = kafka().admin();
  await admin.connect();
  try {
    const [offsets] = await untilAnswered(() => admin.fetchOffsets({ groupId, topics: [topic] }));
    const p = offsets?.partitions.find((x) => x.partition === partition);
    return { offset: Number(p?.offset ?? -1), metadata: p?.metadata || null };
  } finally {
    await admin.disconnect();
  }
}
