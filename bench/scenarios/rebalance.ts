/**
 * 8. Rebalance: members 1 → 3 → 1 of one group over 6 partitions under a steady 200 records/s,
 * each invocation about 5 s (a handler that waits), on each engine in the same run: kafkajs
 * (the classic eager protocol: every change revokes every partition) and librdkafka (KIP-848:
 * only the partitions that move are revoked). Per change and engine: the longest processing gap
 * of a partition that kept its owner (KIP-848's target: under 1 s), the longest of one that
 * moved, and the time to settle; per engine the duplicates and the records lost (must be 0).
 */
import { PollerChild } from '../lib/child.ts';
import { accounting, handover, type Handover, type MemberTimeline } from '../lib/handover.ts';
import { createTopic, deleteTopics, uniqueName } from '../lib/kafka.ts';
import { sleep, waitUntil } from '../lib/stats.ts';
import type { BenchContext, Figure, Scenario } from '../lib/types.ts';

const PARTITIONS = 6;
const RATE = 200;
const HANDLER_MS = 5_000;
/** Each invocation takes 5 s ± 1 s, so the partitions' chunks do not end together. */
const JITTER_MS = 1_000;
const ENGINES = ['kafkajs', 'librdkafka'] as const;
const ONLY = process.env.BENCH_REBALANCE_ENGINE; // one engine alone, when looking into it
type Engine = (typeof ENGINES)[number];

interface EngineRun {
  engine: Engine;
  up: Handover;
  down: Handover;
  duplicates: number;
  lost: number;
  produced: number;
}

export const rebalance: Scenario = async (ctx) => {
  const runs: EngineRun[] = [];
  for (const engine of ENGINES.filter((e) => !ONLY || e === ONLY)) runs.push(await runEngine(ctx, engine));
  return { figures: runs.flatMap(figuresOf), data: { partitions: PARTITIONS, ratePerSecond: RATE, handlerMs: HANDLER_MS, runs } };
};

async function runEngine(ctx: BenchContext, engine: Engine): Promise<EngineRun> {
  const hold = ctx.quick ? 15_000 : 30_000;
  const topic = uniqueName(`rebalance-${engine}`);
  const groupId = uniqueName(`rebalance-group-${engine}`);
  await createTopic(ctx.kafka, topic, PARTITIONS);
  const member = (i: number) =>
    new PollerChild({
      name: `bench-rebalance-${engine}-${i}`, brokers: ctx.brokers, topic, groupId, engine, timeline: true,
      batchSize: 1_000, maximumBatchingWindowMs: 0, concurrency: PARTITIONS, env: { BENCH_SLEEP_MS: String(HANDLER_MS - JITTER_MS), BENCH_SLEEP_JITTER_MS: String(2 * JITTER_MS) },
    });
  const names = new Map<PollerChild, string>();
  const pollers: PollerChild[] = [];
  const add = (n: number) => {
    for (let k = 0; k < n; k++) {
      const p = member(pollers.length + 1);
      names.set(p, `m${pollers.length + 1}`);
      pollers.push(p);
    }
  };
  const load = steadyLoad(ctx, topic);
  try {
    add(1);
    await pollers[0]!.ready;
    await waitUntil('the first member to own every partition', () => pollers[0]!.owned().length === PARTITIONS, 60_000, 50);
    await sleep(hold / 2);
    const upAt = Date.now();
    ctx.log(`${engine}: 1 → 3 members`);
    add(2);
    await sleep(hold);
    const downAt = Date.now();
    ctx.log(`${engine}: 3 → 1 member`);
    await Promise.all(pollers.slice(1).map((p) => p.stop()));
    await sleep(hold);
    const endAt = Date.now();
    const produced = await load.stop();
    const timelines: MemberTimeline[] = pollers.map((p) => ({ name: names.get(p)!, joins: p.joins, invocations: p.invocations, ...(p.exitedAt ? { leftAt: p.exitedAt } : {}) }));
    await waitUntil('the group to commit the log end', () => drained(ctx, groupId, topic), 60_000, 500).catch(async (e: unknown) => {
      ctx.log(`${engine}: not drained; assignments ${JSON.stringify(timelines.map((t) => ({ member: t.name, left: t.leftAt !== undefined, joins: t.joins.map((j) => j.assignment[topic]) })))}`);
      ctx.log(`${engine}: log ends ${JSON.stringify([...(await logEnds(ctx, topic))])}, committed ${JSON.stringify(await committedOf(ctx, groupId, topic))}`);
      throw e;
    });
    const up = handover(timelines, upAt, downAt);
    const down = handover(timelines, downAt, endAt);
    const { duplicates, lost } = accounting(timelines, await logEnds(ctx, topic));
    ctx.log(`${engine}: 1→3 kept ${up.kept.join(',') || 'none'} gap ${(up.keptGapMs / 1000).toFixed(2)} s, moved gap ${(up.movedGapMs / 1000).toFixed(2)} s, settled ${(up.settleMs / 1000).toFixed(1)} s; ` +
      `3→1 kept ${down.kept.join(',') || 'none'} gap ${(down.keptGapMs / 1000).toFixed(2)} s, moved gap ${(down.movedGapMs / 1000).toFixed(2)} s, settled ${(down.settleMs / 1000).toFixed(1)} s; ` +
      `${produced} produced, ${duplicates} duplicates, ${lost} lost`);
    return { engine, up, down, duplicates, lost, produced };
  } finally {
    await load.stop();
    await Promise.all(pollers.map((p) => p.stop()));
    await deleteTopics(ctx.kafka, [topic]);
  }
}

/** 20 records every 100 ms, round-robin over the partitions, until stopped; resolves with the count. */
function steadyLoad(ctx: BenchContext, topic: string): { stop(): Promise<number> } {
  const producer = ctx.kafka.producer({ allowAutoTopicCreation: false });
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight = Promise.resolve();
  const ready = producer.connect().then(() => {
    timer = setInterval(() => {
      const messages = Array.from({ length: RATE / 10 }, (_, i) => ({ partition: (sent + i) % PARTITIONS, value: String(sent + i) }));
      sent += messages.length;
      inFlight = inFlight.then(() => producer.send({ topic, messages }).then(() => undefined));
    }, 100);
  });
  let stopped: Promise<number> | undefined;
  return {
    stop: () =>
      (stopped ??= ready.then(async () => {
        clearInterval(timer);
        await inFlight;
        await producer.disconnect();
        return sent;
      })),
  };
}

async function logEnds(ctx: BenchContext, topic: string): Promise<Map<number, number>> {
  const admin = ctx.kafka.admin();
  await admin.connect();
  try {
    return new Map((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]));
  } finally {
    await admin.disconnect();
  }
}

async function committedOf(ctx: BenchContext, groupId: string, topic: string): Promise<Array<[number, number]>> {
  const admin = ctx.kafka.admin();
  await admin.connect();
  try {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return committed!.partitions.map((p) => [p.partition, Number(p.offset)]);
  } finally {
    await admin.disconnect();
  }
}

async function drained(ctx: BenchContext, groupId: string, topic: string): Promise<boolean> {
  const ends = await logEnds(ctx, topic);
  return (await committedOf(ctx, groupId, topic)).every(([p, offset]) => offset === ends.get(p));
}

function figuresOf(r: EngineRun): Figure[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const incremental = r.engine === 'librdkafka';
  const change = (label: string, h: Handover): Figure[] => [
    {
      scenario: 'rebalance', figure: `${r.engine} ${label}: longest gap of a partition that kept its owner (${h.kept.length} kept)`,
      value: h.kept.length ? s(h.keptGapMs) : 'none kept',
      ...(incremental && h.kept.length ? { target: '< 1 s', met: h.keptGapMs < 1_000 } : {}),
    },
    { scenario: 'rebalance', figure: `${r.engine} ${label}: longest gap of a partition that moved (${h.moved.length} moved)`, value: h.moved.length ? s(h.movedGapMs) : 'none moved' },
    { scenario: 'rebalance', figure: `${r.engine} ${label}: change → last assignment`, value: s(h.settleMs) },
  ];
  return [
    ...change('1 → 3', r.up),
    ...change('3 → 1', r.down),
    { scenario: 'rebalance', figure: `${r.engine}: duplicates of ${r.produced} records`, value: String(r.duplicates) },
    { scenario: 'rebalance', figure: `${r.engine}: records lost`, value: String(r.lost), target: '0', met: r.lost === 0 },
  ];
}
