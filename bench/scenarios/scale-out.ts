/**
 * 5. Scale-out: 1, then 2, then 4 poller processes in one group over 12 partitions of 1 KB
 * records, a handler of a fixed 20 ms (batchSize 100, concurrency 3 per process, so that 4
 * processes × 3 = 12 partitions: the ideal is 2× and 4×). For each step: the time for the
 * group to settle (new processes spawned → every member joined with the 12 partitions split
 * between them), then records/s over a window, against 1 process in the same run.
 */
import { PollerChild } from '../lib/child.ts';
import { createTopic, deleteTopics, preload, uniqueName } from '../lib/kafka.ts';
import { perSecond, sleep, waitUntil } from '../lib/stats.ts';
import type { Figure, Scenario } from '../lib/types.ts';

const PARTITIONS = 12;
const STEPS = [1, 2, 4] as const;

interface Step {
  processes: number;
  settleMs: number;
  /** From the first existing member learning of the rebalance to the last join (the group protocol's part). */
  rebalanceMs: number | undefined;
  recordsPerSecond: number;
  backlogLeft: number;
}

export const scaleOut: Scenario = async (ctx) => {
  const windowMs = ctx.quick ? 2_500 : 10_000;
  // Enough that 4 processes (about 4× one, which drains ~12k records/s here) never run dry, with
  // the settling of each step (a few seconds each) drawing on the same backlog.
  const records = ctx.quick ? 450_000 : 1_600_000;
  const topic = uniqueName('scale-out');
  await createTopic(ctx.kafka, topic, PARTITIONS);
  await preload(ctx.kafka, topic, { records, partitions: PARTITIONS, valueBytes: 1024 });
  const groupId = uniqueName('scale-group');
  const pollers: PollerChild[] = [];
  const steps: Step[] = [];
  try {
    for (const processes of STEPS) {
      const since = Date.now();
      while (pollers.length < processes) {
        pollers.push(new PollerChild({ name: `bench-scale-${pollers.length + 1}`, brokers: ctx.brokers, topic, groupId, batchSize: 100, maximumBatchingWindowMs: 0, concurrency: 3, env: { BENCH_SLEEP_MS: '20' } }));
      }
      await waitUntil(`${processes} members to settle`, () => settled(pollers, since), 120_000, 20);
      const settledAt = Math.max(...pollers.map((p) => p.joins.at(-1)!.at));
      const noticed = pollers.flatMap((p) => p.rebalances.filter((at) => at >= since));
      const rebalanceMs = noticed.length ? settledAt - Math.min(...noticed) : undefined;
      const settleMs = settledAt - since;
      await sleep(ctx.quick ? 500 : 1_000);
      const before = total(pollers);
      const started = performance.now();
      await sleep(windowMs);
      const rate = perSecond(total(pollers) - before, performance.now() - started);
      steps.push({ processes, settleMs, rebalanceMs, recordsPerSecond: rate, backlogLeft: records - total(pollers) });
      ctx.log(`${processes} process(es): settled in ${(settleMs / 1000).toFixed(1)} s, ${Math.round(rate)} records/s, ${records - total(pollers)} records left`);
    }
  } finally {
    await Promise.all(pollers.map((p) => p.stop()));
    await deleteTopics(ctx.kafka, [topic]);
  }
  return { figures: figuresOf(steps), data: { partitions: PARTITIONS, records, windowMs, batchSize: 100, concurrency: 3, handlerMs: 20, steps: steps.map((s) => ({ ...s, recordsPerSecond: Math.round(s.recordsPerSecond) })) } };
};

/** Every member joined after `since`, and their assignments split all partitions without overlap. */
function settled(pollers: PollerChild[], since: number): boolean {
  if (pollers.some((p) => p.hasExited)) throw new Error('a poller process exited before the group settled (its error is above)');
  if (!pollers.every((p) => (p.joins.at(-1)?.at ?? 0) >= since)) return false;
  const owned = pollers.flatMap((p) => p.owned());
  return owned.length === PARTITIONS && new Set(owned).size === PARTITIONS;
}

const total = (pollers: PollerChild[]) => pollers.reduce((n, p) => n + p.records, 0);

/** A step whose backlog ran out within its window measured the backlog, not the pollers: it reports "not measured", never a number. */
function figuresOf(steps: Step[]): Figure[] {
  const base = steps[0]!;
  const targets: Record<number, number> = { 2: 1.8, 4: 3.2 };
  const NOT_MEASURED = 'not measured (the backlog ran dry in the window)';
  return steps.flatMap((s): Figure[] => {
    const dry = s.backlogLeft <= 0;
    const ratio = s.recordsPerSecond / base.recordsPerSecond;
    const target = targets[s.processes];
    const comparable = !dry && base.backlogLeft > 0;
    return [
      { scenario: 'scale-out', figure: `${s.processes} process(es): records/s`, value: dry ? NOT_MEASURED : String(Math.round(s.recordsPerSecond)) },
      ...(target
        ? [comparable
          ? { scenario: 'scale-out', figure: `${s.processes} processes vs 1: throughput ratio`, value: `${ratio.toFixed(2)}×`, target: `≥ ${target}×`, met: ratio >= target }
          : { scenario: 'scale-out', figure: `${s.processes} processes vs 1: throughput ratio`, value: NOT_MEASURED, target: `≥ ${target}×` }]
        : []),
      {
        scenario: 'scale-out',
        figure: `${s.processes} process(es): spawned → group settled${s.rebalanceMs === undefined ? '' : " (of which the members' rejoin)"}`,
        value: `${(s.settleMs / 1000).toFixed(1)} s${s.rebalanceMs === undefined ? '' : ` (${(s.rebalanceMs / 1000).toFixed(1)} s)`}`,
      },
    ];
  });
}

