/**
 * What the hostile tier's runs share: topics with a large max.message.bytes, the partitions' log
 * ends, the poller process's worst event-loop block and peak RSS while it works, and the
 * accounting of each offset's outcome against what was expected of it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { kafka } from '../../support/kafka.ts';

/** The poller process's resident memory may not pass this while it works through hostile input. */
export const RSS_BOUND = 1024 ** 3;
export const HEARTBEAT_INTERVAL_MS = 3_000;

export type Fate = 'invoked' | 'filtered' | `destination:${string}`;

export async function createTopics(topics: Array<[string, number]>, partitions: number): Promise<void> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: topics.map(([topic, maxMessageBytes]) => ({ topic, numPartitions: partitions, configEntries: [{ name: 'max.message.bytes', value: String(maxMessageBytes) }] })) });
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
