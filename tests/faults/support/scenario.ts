/**
 * One fault scenario under load: a topic (RF 3) fed by librdkafka at a steady rate, members of
 * one consumer group running the real poller with the timeline handler, the fault itself, then
 * a drain until the group has committed the log end. Returns the oracle's figures with the
 * producer's count and the group's final offsets, prints them on one line and appends them to
 * `.sluice/faults/results.jsonl` (the README's "Faults survived" table is made from it).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterHandle } from '../../../infra/kafka/cluster.ts';
import { engineUnderTest, startRecorder, type Harness } from '../../support/harness.ts';
import { python } from '../../support/python.ts';
import { createTopic, deleteTopic, offsets, uniqueName, waitFor } from '../../support/kafka.ts';
import { faultCluster } from './cluster.ts';
import { analyse, traceOf, type Figures, type Invocation, type PollerEvent } from './oracle.ts';
import { within } from './within.ts';

const LOAD = fileURLToPath(new URL('./load.py', import.meta.url));
const RESULTS = join(fileURLToPath(new URL('../../..', import.meta.url)), '.sluice', 'faults');
/**
 * How long a member may take to join or to stop (its in-flight chunks finish, it commits and
 * leaves), even while a node is down: past it the scenario fails naming the step, instead of
 * stalling the tier (a member's stop once hung right after a node stopped).
 */
export const MEMBER_STEP_MS = 90_000;

export interface ScenarioOptions {
  name: string;
  partitions: number;
  /** Records the producer writes, at `ratePerSecond`. */
  records: number;
  ratePerSecond: number;
  members: number;
  /** How long each invocation takes. */
  handlerMs?: number;
  sessionTimeoutMs?: number;
  /**
   * The trigger's parallelizationFactor (1 by default). Above 1 the producer writes 40 keys, so
   * chunks of one partition run side by side and a key's records wait for each other.
   */
  parallelizationFactor?: number;
  fault(ctx: FaultContext): Promise<void>;
}

export interface FaultContext {
  cluster: ClusterHandle;
  topic: string;
  groupId: string;
  /** Records that invocations have ended on so far (with repeats). */
  processed(): number;
  /** Until `n` records were processed, or as many as the producer wrote once it is done (a slow machine's rounds can outlast the load). */
  waitProcessed(n: number, timeoutMs?: number): Promise<void>;
  addMember(): Promise<void>;
  /** Stops the newest member cleanly (it leaves the group). */
  removeMember(): Promise<void>;
  /** Marks when the fault began: the stall is measured from here. */
  began(): void;
}

export interface ScenarioResult extends Figures {
  name: string;
  /** Joins a member made while batches of its own still ran: kafkajs's rejoins from inside a fetch. */
  joinsWithBatchesRunning: number;
  acked: number;
  producerFailed: number;
  /** Partitions whose committed offset is not the log end after the drain. */
  uncommitted: string[];
  members: number;
  parallelizationFactor: number;
  seconds: number;
}

export async function runScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const factor = o.parallelizationFactor ?? 1;
  const cluster = await faultCluster();
  const topic = uniqueName(`fault-${o.name}`);
  const groupId = uniqueName('fault-group');
  await createTopic(topic, o.partitions);
  await cluster.waitHealthy([topic]);
  const members: Harness[] = [];
  const everyone: Harness[] = [];
  const events: PollerEvent[] = [];
  let memberCount = 0;
  let joinsWithBatchesRunning = 0;
  let faultAt = Date.now();

  const addMember = async (): Promise<void> => {
    const member = `m${++memberCount}`;
    const h = await startRecorder({
      // A function name of its own (bundles are named by function and handler, framework/invoke/bundle.ts).
      functionName: 'timeline', path: 'functions.timeline.events[0].sluice',
      topic, bootstrapServers: cluster.bootstrap, consumerGroupId: groupId, handler: 'functions/timeline.handler',
      batchSize: 20, concurrency: o.partitions, parallelizationFactor: factor, sessionTimeoutMs: o.sessionTimeoutMs ?? 10_000, heartbeatIntervalMs: 1_000,
      maxConsumerRestarts: 20, env: { MEMBER: member, SLEEP_MS: String(o.handlerMs ?? 20) },
    });
    const push = (name: PollerEvent['name']) => (payload: object) => {
      const e = payload as Pick<PollerEvent, 'partition' | 'offset' | 'done' | 'reason'>;
      events.push({
        member, at: Date.now(), name, ...(e.partition !== undefined ? { partition: e.partition } : {}), ...(e.offset !== undefined ? { offset: e.offset } : {}),
        ...(e.done ? { done: e.done } : {}), ...(e.reason ? { reason: e.reason } : {}),
      });
    };
    h.events.on('poller.commit', push('poller.commit'));
    h.events.on('poller.commit_refused', push('poller.commit_refused'));
    h.events.on('group.crash', push('group.crash'));
    h.events.on('trigger.consumer_stopped', push('trigger.consumer_stopped'));
    h.events.on('group.join', push('group.join'));
    h.events.on('poller.commit_metadata', push('poller.commit_metadata'));
    h.events.on('group.join', (e) => {
      if (e.batchesRunning) joinsWithBatchesRunning++;
    });
    members.push(h);
    everyone.push(h);
  };
  const invocations = (): Invocation[] => everyone.flatMap((h) => readTimeline(h.recordFile));
  const processed = () => invocations().reduce((n, i) => n + (i.end === undefined ? 0 : i.records.length), 0);

  const startMember = (): Promise<void> => within(`member m${memberCount + 1} joining`, MEMBER_STEP_MS, addMember());
  const stopMember = (h: Harness, i: number): Promise<void> => within(`member m${i} stopping`, MEMBER_STEP_MS, h.stop());
  let load: Load | undefined;
  let ended = false;
  try {
    for (let i = 0; i < o.members; i++) await startMember();
    load = produceLoad(cluster.bootstrap, topic, o.records, o.ratePerSecond, factor > 1 ? KEYS_WHEN_PARALLEL : undefined);
    load.done.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    // Once the producer is done, nothing more will come: a wait for more records than it wrote ends there.
    let written = Infinity;
    load.done.then((p) => (written = p.acked), () => undefined);
    await waitFor('the first records processed', () => processed() >= Math.min(100, o.records / 10), 60_000);
    await o.fault({
      cluster, topic, groupId, processed, addMember: startMember,
      waitProcessed: (n, timeoutMs = 120_000) => waitFor(`${n} records processed`, () => processed() >= Math.min(n, written), timeoutMs, 250),
      removeMember: async () => {
        const h = members.pop();
        if (h) await stopMember(h, everyone.indexOf(h) + 1);
      },
      began: () => (faultAt = Date.now()),
    });
    const produced = await load.done;
    await cluster.waitHealthy([topic], 120_000);
    const drained = async () => (await offsets(groupId, topic)).every((p) => p.committed === p.logEnd);
    await waitFor('the group to commit the log end', drained, 180_000, 500).catch(() => undefined);
    const final = await offsets(groupId, topic);
    const figures = analyse({ logEnd: new Map(final.map((p) => [p.partition, p.logEnd])), invocations: invocations(), events, from: faultAt });
    const result: ScenarioResult = {
      name: scenarioName(o.name, factor), ...figures, joinsWithBatchesRunning, acked: produced.acked, producerFailed: produced.failed,
      uncommitted: final.filter((p) => p.committed !== p.logEnd).map((p) => `${p.partition}: committed ${p.committed}, log end ${p.logEnd}`),
      members: memberCount, parallelizationFactor: factor, seconds: Math.round((Date.now() - started) / 1000),
    };
    reportStream(result);
    // Enough to find a cause when the run cannot be repeated (a CI machine's log is all there is).
    for (const u of result.unexplained.slice(0, 3)) {
      const key = u.split(' ')[0]!;
      console.log(`[fault:${result.name}] what happened to ${key}:\n  ${traceOf(key, invocations(), events).join('\n  ')}`);
    }
    ended = true;
    return result;
  } finally {
    load?.stop(); // a scenario that failed early must not leave the producer loading the next one
    // Bounded too: a member that cannot stop must not hold the tier after the scenario failed.
    const stops = await Promise.allSettled(members.map((h) => stopMember(h, everyone.indexOf(h) + 1)));
    const stuck = stops.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : []));
    for (const m of stuck) console.log(`[fault:${o.name}] ${m}`);
    await deleteTopic(topic);
    // A scenario that had already failed keeps its own error.
    if (ended && stuck.length) throw new Error(stuck.join('; '));
  }
}

/** As the README's table names a run: `leader-kill`, `leader-kill@librdkafka`, `leader-kill@f4@librdkafka`. */
function scenarioName(name: string, factor: number): string {
  const engine = engineUnderTest().engine;
  return `${name}${factor > 1 ? `@f${factor}` : ''}${engine === 'kafkajs' ? '' : `@${engine}`}`;
}

/** The invocations a timeline handler recorded in `file` (complete lines only: a member may be appending one). */
export function readTimeline(file: string): Invocation[] {
  if (!existsSync(file)) return [];
  const byId = new Map<string, Invocation>();
  const text = readFileSync(file, 'utf8');
  for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { kind: 'start' | 'end'; id: string; member: string; at: number; records: Invocation['records'] };
    if (e.kind === 'start') byId.set(e.id, { id: e.id, member: e.member, start: e.at, records: e.records });
    else byId.get(e.id)!.end = e.at;
  }
  return [...byId.values()];
}

export interface Load {
  /** The producer's count once it delivered everything (or gave up). */
  done: Promise<{ acked: number; failed: number }>;
  stop(): void;
}

const KEYS_WHEN_PARALLEL = 40;

/** librdkafka writing `count` sequence-numbered records at `rate` per second, each its own key or one of `keys` (support/load.py). */
export function produceLoad(bootstrap: string[], topic: string, count: number, rate: number, keys?: number): Load {
  const args = [LOAD, bootstrap.join(','), topic, String(count), String(rate), ...(keys ? [String(keys)] : [])];
  const child = spawn(python(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ acked: number; failed: number }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load producer exited ${code}: ${err.trim()}`));
      const r = JSON.parse(out) as { acked: number; failed: unknown[] };
      resolve({ acked: r.acked, failed: r.failed.length });
    });
  });
  return { done, stop: () => void (child.exitCode === null && child.kill('SIGKILL')) };
}

function reportStream(r: ScenarioResult): void {
  const causes = Object.entries(r.causes).map(([c, n]) => `${n} ${c}`).join(', ') || 'none';
  report(
    `[fault:${r.name}] produced ${r.produced} (producer acked ${r.acked}, failed ${r.producerFailed}), processed ${r.processed}, lost ${r.lost.length}, ` +
      `duplicates ${r.duplicates} (${causes}; unexplained ${r.unexplained.length}), overlaps ${r.overlaps.length}, joins with batches running ${r.joinsWithBatchesRunning}, longest stall ${(r.longestStallMs / 1000).toFixed(1)} s, widest ${r.widest}, ` +
      `uncommitted ${r.uncommitted.length}, members ${r.members}, ${r.seconds} s`,
    [...r.unexplained.slice(0, 10).map((u) => `unexplained duplicate ${u}`), ...r.overlaps.slice(0, 10).map((ov) => `overlap on partition ${ov.partition}: ${JSON.stringify(ov.a)} and ${JSON.stringify(ov.b)}`)],
    { ...r, lost: r.lost.slice(0, 50) },
  );
}

/** A scenario's line and its first problems, printed, and its figures appended to results.jsonl. */
export function report(line: string, problems: string[], figures: { name: string } & Record<string, unknown>): void {
  console.log(line);
  for (const p of problems) console.log(`[fault:${figures.name}] ${p}`);
  mkdirSync(RESULTS, { recursive: true });
  appendFileSync(join(RESULTS, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), ...figures }) + '\n');
}
