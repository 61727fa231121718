/**
 * What the hostile tier's runs share: topics with a large max.message.bytes, the partitions' log
 * ends, the poller process's worst event-loop block and peak RSS while it works, and a run of a
 * trigger with a JSON filter, a retry policy and a kafka:// destination to its topic's end, each
 * offset's outcome accounted for against what was expected of it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import kafkajs from 'kafkajs';
import { FAILURE_HEADERS } from '../../../framework/failure/failed-record.ts';
import { engineUnderTest, failurePolicy, recordsOf, startRecorder, type Harness, type RecorderOptions } from '../../support/harness.ts';
import { createTopicsWithLeaders, kafka, offsets, readTopic, waitFor } from '../../support/kafka.ts';
import type { Codec, HostileBatch } from './generate.ts';
import { describeCases, perCase, sampleProcess, type CaseFigures, type Handover } from '../../support/per-case.ts';

const { CompressionTypes } = kafkajs;
const COMPRESSION: Record<Codec, number> = { none: CompressionTypes.None, gzip: CompressionTypes.GZIP, snappy: CompressionTypes.Snappy, lz4: CompressionTypes.LZ4, zstd: CompressionTypes.ZSTD };

/** The poller process's resident memory may not pass this while it works through hostile input. */
export const RSS_BOUND = 1024 ** 3;
/**
 * The poller sends kafkajs's heartbeats from its own event loop, so a record whose decoding blocks
 * that loop shows at the broker: with the shortest session a broker accepts (6 s,
 * group.min.session.timeout.ms) and a heartbeat every 2 s, a block of a few seconds loses the
 * member's session, and the run sees a failed heartbeat and a rebalance.
 */
export const SESSION_TIMEOUT_MS = 6_000;
export const HEARTBEAT_INTERVAL_MS = 2_000;

export type Fate = 'invoked' | 'filtered' | `destination:${string}`;

export async function createTopics(topics: Array<[string, number]>, partitions: number): Promise<void> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    await createTopicsWithLeaders(admin, topics.map(([topic, maxMessageBytes]) => ({ topic, numPartitions: partitions, configEntries: [{ name: 'max.message.bytes', value: String(maxMessageBytes) }] })));
  } finally {
    await admin.disconnect();
  }
}

export async function kafkaEnds(topic: string): Promise<number[]> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    const ends: number[] = [];
    for (const p of await admin.fetchTopicOffsets(topic)) ends[p.partition] = Number(p.high);
    return ends;
  } finally {
    await admin.disconnect();
  }
}

/** Produces each batch as one request (one record batch), round the partitions, and returns what must become of each offset: `partition:offset` -> fate. */
export async function produceAll(topic: string, batches: HostileBatch[], partitions: number): Promise<Map<string, { fate: Fate; kind: string }>> {
  const producer = kafka().producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const expected = new Map<string, { fate: Fate; kind: string }>();
  try {
    for (const [i, b] of batches.entries()) {
      const partition = i % partitions;
      const messages = b.records.map((r) => {
        const headers: Record<string, Buffer[]> = Object.create(null);
        for (const [name, value] of r.headers ?? []) (headers[name] ??= []).push(value);
        return { partition, value: r.value, headers };
      });
      for (let n = 0; n < (b.repeat ?? 1); n++) {
        const [meta] = await producer.send({ topic, compression: COMPRESSION[b.codec], acks: -1, messages });
        b.records.forEach((r, j) => expected.set(`${partition}:${Number(meta!.baseOffset) + j}`, { fate: r.fate, kind: `${b.kind}/${b.codec}` }));
      }
    }
  } finally {
    await producer.disconnect();
  }
  return expected;
}

/** Starts watching this process; `end()` stops and returns the worst event-loop block, its p99 and the peak RSS. */
export function watchProcess(): { end(): { blockedMs: number; p99Ms: number; rss: number } } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 50);
  loop.enable();
  return {
    end() {
      loop.disable();
      clearInterval(sampler);
      return { blockedMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6, rss };
    },
  };
}

/** Each offset's outcome (`partition:offset`) against what was expected of it: counts per kind and outcome, and what went wrong. */
export function account(expected: Map<string, { fate: Fate; kind: string }>, invoked: Set<string>, inDestination: Map<string, string>): { fates: Map<string, number>; wrong: string[] } {
  const fates = new Map<string, number>();
  const wrong: string[] = [];
  for (const [at, { fate, kind }] of expected) {
    const got: Fate = invoked.has(at) ? 'invoked' : inDestination.has(at) ? `destination:${inDestination.get(at)}` : 'filtered';
    fates.set(`${kind} -> ${got}`, (fates.get(`${kind} -> ${got}`) ?? 0) + 1);
    if (got !== fate) wrong.push(`${at} (${kind}): expected ${fate}, got ${got}`);
  }
  return { fates, wrong };
}

export const describeCounts = (counts: Map<string, number>, sep = ', ') => [...counts].sort().map(([k, n]) => `${k}: ${n}`).join(sep);

export interface HostileRun {
  /** Consumer restarts: each stop's error. */
  stopped: unknown[];
  /** Heartbeats the coordinator refused, rebalances the member saw, and its joins (1: it never lost its session). */
  session: { failedHeartbeats: number; rebalances: number; joins: number };
  rss: number;
  /** Per case (kind/codec): the worst block and peak RSS while it was in the poller (an upper bound: per-case.ts). */
  cases: Map<string, CaseFigures>;
  /** Records the poller reported filtered out (poller.filtered; a record fetched again is counted again), and how many were expected to be. */
  filtered: { reported: number; expected: number };
  /** Offsets whose outcome was not the expected one. */
  wrong: string[];
}

/**
 * Runs a recorder on `topic` (filter `{ value: { keep: [true] } }`, 2 retries, failures to
 * kafka://`failed`) until every partition committed to its end, `whileRunning` meanwhile; prints
 * and returns what the tier asserts. `started` gets the harness at once, for the test to stop.
 */
export async function runToEnd(o: {
  label: string;
  topic: string;
  failed: string;
  expected: Map<string, { fate: Fate; kind: string }>;
  trigger?: Partial<RecorderOptions>;
  started(h: Harness): void;
  whileRunning?(h: Harness): Promise<void>;
}): Promise<HostileRun> {
  const watch = watchProcess();
  const sampling = sampleProcess();
  const handovers: Handover[] = [];
  const stopped: unknown[] = [];
  let failedHeartbeats = 0;
  let rebalances = 0;
  let filteredReported = 0;
  const sent = new Map<string, string>();
  let h: Harness;
  let watched: ReturnType<ReturnType<typeof watchProcess>['end']>;
  try {
    h = await startRecorder({
      topic: o.topic, sessionTimeoutMs: SESSION_TIMEOUT_MS, heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS, filterPatterns: [{ value: { keep: [true] } }],
      failure: failurePolicy({ maximumRetryAttempts: 2, onFailure: { kind: 'kafka', uri: `kafka://${o.failed}`, topic: o.failed } }),
      ...o.trigger,
    });
    o.started(h);
    h.events.on('trigger.consumer_stopped', (e) => stopped.push(e.error));
    h.events.on('poller.heartbeat', (e) => (failedHeartbeats += e.ok ? 0 : 1));
    h.events.on('group.rebalance_detected', () => (rebalances += 1));
    // KIP-848 (librdkafka): no heartbeat from the poller's loop to fail, but a partition taken away is a rebalance.
    h.events.on('group.rebalanced', (e) => (rebalances += e.revoked?.length ? 1 : 0));
    h.events.on('poller.filtered', (e) => (filteredReported += e.count));
    h.events.on('poller.batch_received', (e) => {
      const cases = new Set<string>();
      for (let at = e.firstOffset; at <= e.lastOffset; at++) {
        const kind = o.expected.get(`${e.partition}:${at}`)?.kind;
        if (kind) cases.add(kind);
      }
      handovers.push({ at: Date.now(), cases: [...cases] });
    });
    h.events.on('poller.sent_to_destination', (e) => e.offsets.forEach((at) => sent.set(`${e.partition}:${at}`, e.reason)));
    await o.whileRunning?.(h);
    const ends = await kafkaEnds(o.topic);
    await waitFor('every partition committed to its end', async () => (await offsets(h.trigger.consumerGroupId, o.topic)).every((p) => p.committed === ends[p.partition]), 150_000, 500);
  } finally {
    watched = watch.end();
  }
  const cases = perCase(sampling.end(), handovers);
  const { blockedMs, p99Ms, rss } = watched;
  // librdkafka announces each incremental assignment of one membership (KIP-848): a join is a new member id there.
  const session = { failedHeartbeats, rebalances, joins: engineUnderTest().engine === 'librdkafka' ? new Set(h.joins.map((j) => j.memberId)).size : h.joins.length };
  console.log(`[${o.label}] worst event-loop delay ${blockedMs.toFixed(0)} ms (p99 ${p99Ms.toFixed(0)} ms); peak RSS ${(rss / 1024 ** 2).toFixed(0)} MiB; consumer restarts ${stopped.length}; ${session.failedHeartbeats} failed heartbeats, ${session.rebalances} rebalances, ${session.joins} joins (${SESSION_TIMEOUT_MS / 1000} s session)`);
  const invoked = new Set(h.seen().flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`));
  const inDestination = new Map((await readTopic(o.failed, sent.size, 60_000)).map((r) => [`${r.headers[FAILURE_HEADERS.partition]}:${r.headers[FAILURE_HEADERS.offset]}`, String(r.headers[FAILURE_HEADERS.reason])]));
  const { fates, wrong } = account(o.expected, invoked, inDestination);
  console.log(`[${o.label}] outcomes: ${describeCounts(fates, '; ')}`);
  console.log(`[${o.label}] per case, while it was in the poller (each an upper bound: a sample counts for the batches handed over either side of it):\n${describeCases(cases)}`);
  // "Filtered" above is what was neither invoked nor sent: a record committed over unseen would pass
  // as filtered there, so the poller's own count must cover every record expected filtered.
  const filtered = { reported: filteredReported, expected: [...o.expected.values()].filter((e) => e.fate === 'filtered').length };
  console.log(`[${o.label}] filtered: ${filtered.reported} reported by the poller, ${filtered.expected} expected`);
  return { stopped, session, rss, cases, filtered, wrong };
}
