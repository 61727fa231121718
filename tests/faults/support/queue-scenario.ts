/**
 * One fault scenario for queue mode (share groups) under load: a topic (RF 3) fed by librdkafka at a
 * steady rate, members of one share group running the real poller with the timeline handler (in
 * this process, and optionally one in a process of its own, for a fault that kills it), the fault,
 * then a drain until the broker has applied an acceptance of every record. Returns the queue
 * oracle's figures (queue-oracle.ts), prints them on one line and appends them to
 * `.sluice/faults/results.jsonl` as the stream scenarios do.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { ClusterHandle } from '../../../infra/kafka/cluster.ts';
import { kafkajsShareTransport } from '../../../framework/kafka/kafkajs/share-transport.ts';
import { alterGroupConfig, COORDINATOR, describeShareGroupOffsets, findCoordinators, shareStateKey } from '../../../framework/kafka/share/group-messages.ts';
import { metadata } from '../../../framework/kafka/share/messages.ts';
import { runCli, type CliProcess } from '../../support/cli.ts';
import { failurePolicy, startRecorder, type Harness } from '../../support/harness.ts';
import { createTopic, deleteTopic, offsets, uniqueName, waitFor } from '../../support/kafka.ts';
import { faultCluster } from './cluster.ts';
import { analyseQueue, queueTrace, type Acquisition, type AckResult, type Kill, type QueueFigures } from './queue-oracle.ts';
import { MEMBER_STEP_MS, produceLoad, readTimeline, report, type Load } from './scenario.ts';
import { within } from './within.ts';

/** The shortest acquisition lock a broker allows by default (group.share.min.record.lock.duration.ms): a killed member's records come back after it. */
export const LOCK_MS = 15_000;
/** Deliveries a record may have before the destination: more than any fault here causes, so a record in the destination is a finding. */
const RETRIES = 8;

export interface QueueScenarioOptions {
  name: string;
  partitions: number;
  records: number;
  ratePerSecond: number;
  /** Members in this process. */
  members: number;
  /** One more member, `p1`, in a process of its own (the fault may kill it). */
  processMember?: boolean;
  handlerMs?: number;
  fault(ctx: QueueFaultContext): Promise<void>;
}

export interface QueueFaultContext {
  cluster: ClusterHandle;
  topic: string;
  groupId: string;
  /** Records that invocations have ended on so far (with repeats). */
  processed(): number;
  waitProcessed(n: number, timeoutMs?: number): Promise<void>;
  /** The node keeping partition `p`'s share state (FindCoordinator, key type SHARE). */
  shareCoordinatorOf(p: number): Promise<number>;
  /** The node coordinating the share group (its heartbeats and assignments). */
  groupCoordinator(): Promise<number>;
  /** The member in its own process: its invocations started and not ended, and a kill -9 of it. */
  processMember(): { inFlight(): number; kill(): Promise<void> };
}

export interface QueueScenarioResult extends QueueFigures {
  name: string;
  acked: number;
  producerFailed: number;
  /** Partitions where the broker still counts records not acknowledged (DescribeShareGroupOffsets' lag) after the drain. */
  brokerLag: string[];
  /** Records the on-failure destination received: none is expected here. */
  inDestination: number;
  members: number;
  seconds: number;
}

export async function runQueueScenario(o: QueueScenarioOptions): Promise<QueueScenarioResult> {
  const started = Date.now();
  const cluster = await faultCluster();
  const topic = uniqueName(`fault-queue-${o.name}`);
  const failed = uniqueName(`fault-queue-${o.name}-failed`);
  const groupId = uniqueName('fault-share-group');
  await createTopic(topic, o.partitions);
  await createTopic(failed, 1);
  await cluster.waitHealthy([topic, failed]);
  const admin = kafkajsShareTransport(new Kafka({ clientId: 'sluice-fault-queue', brokers: cluster.bootstrap, logLevel: logLevel.NOTHING }));
  const topicId = (await admin.send('any', metadata([topic]))).topics[0]!.topicId;
  const set = await admin.send('any', alterGroupConfig(groupId, { 'share.record.lock.duration.ms': String(LOCK_MS) }));
  if (set.errorCode !== 0) throw new Error(`could not set the share group's lock duration: ${set.errorCode} ${set.errorMessage}`);

  const dir = mkdtempSync(join(tmpdir(), 'sluice-fault-queue-'));
  const harnesses: Harness[] = [];
  const files: Array<{ member: string; file: string }> = [];
  const acks: AckResult[] = [];
  const acquisitions: Acquisition[] = [];
  const kills: Kill[] = [];
  const onFailure = { kind: 'kafka' as const, uri: `kafka://${failed}`, topic: failed };
  let child: CliProcess | undefined;

  const startMember = async (member: string) => {
    const h = await startRecorder({
      functionName: 'timeline', path: 'functions.timeline.events[0].sluice', handler: 'functions/timeline.handler',
      topic, bootstrapServers: cluster.bootstrap, consumerGroupId: groupId, consumptionMode: 'queue', batchSize: 20, concurrency: 4,
      failure: failurePolicy({ maximumRetryAttempts: RETRIES, onFailure }), maxConsumerRestarts: 20,
      env: { MEMBER: member, SLEEP_MS: String(o.handlerMs ?? 20) },
    });
    h.events.on('queue.acquired', (e) => void acquisitions.push({ member, at: Date.now(), partition: e.partition, leader: e.leader, ranges: e.ranges }));
    h.events.on('queue.ack_result', (e) => void acks.push({ member, at: Date.now(), partition: e.partition, ranges: e.ranges, outcome: e.outcome, ...(e.error !== undefined ? { error: e.error } : {}) }));
    harnesses.push(h);
    files.push({ member, file: h.recordFile });
  };
  const startProcessMember = () => {
    const file = join(dir, 'p1.jsonl');
    files.push({ member: 'p1', file });
    child = runCli('framework/cli/start.ts', ['--config', 'tests/fixtures/serverless-queue.yml'], {
      env: {
        ...process.env, KAFKA_BROKERS: cluster.bootstrap.join(','), SLUICE_LOG_FORMAT: 'json', SLUICE_LOG_LEVEL: 'info', SLUICE_HTTP_PORT: '0',
        RECORD_FILE: file, MEMBER: 'p1', TEST_TOPIC: topic, TEST_GROUP: groupId, FAILED_TOPIC: failed, SLEEP_MS: String(o.handlerMs ?? 20), MAXIMUM_RETRY_ATTEMPTS: String(RETRIES),
      },
    });
  };
  /** The process member's events of `name`, from its JSON lines (complete ones only). */
  const childEvents = <T>(name: string): Array<T & { at: number }> => {
    const out = child?.output() ?? '';
    return out.slice(0, out.lastIndexOf('\n') + 1).split('\n').filter((l) => l.includes(`"event":"${name}"`)).map((l) => {
      const e = JSON.parse(l) as T & { time: string };
      return { ...e, at: Date.parse(e.time) };
    });
  };
  const childAcks = (): AckResult[] =>
    childEvents<Omit<AckResult, 'member' | 'at'>>('queue.ack_result').map((e) => ({ member: 'p1', at: e.at, partition: e.partition, ranges: e.ranges, outcome: e.outcome, ...(e.error !== undefined ? { error: e.error } : {}) }));
  const allAcquisitions = (): Acquisition[] => [
    ...acquisitions,
    ...childEvents<Omit<Acquisition, 'member' | 'at'>>('queue.acquired').map((e) => ({ member: 'p1', at: e.at, partition: e.partition, leader: e.leader, ranges: e.ranges })),
  ];
  const invocations = () => files.flatMap((f) => readTimeline(f.file));
  const processed = () => invocations().reduce((n, i) => n + (i.end === undefined ? 0 : i.records.length), 0);
  const figures = async () => {
    const end = await offsets(groupId, topic);
    return analyseQueue({ logEnd: new Map(end.map((p) => [p.partition, p.logEnd])), invocations: invocations(), acks: [...acks, ...childAcks()], kills, acquisitions: allAcquisitions() });
  };
  const coordinator = async (keyType: 0 | 2, key: string) => {
    const [c] = await admin.send('any', findCoordinators(keyType, [key]));
    if (!c || c.errorCode !== 0) throw new Error(`FindCoordinator for ${key}: ${c?.errorCode} ${c?.errorMessage}`);
    return c.nodeId;
  };

  let load: Load | undefined;
  try {
    if (o.processMember) startProcessMember();
    for (let i = 1; i <= o.members; i++) await within(`member m${i} joining`, MEMBER_STEP_MS, startMember(`m${i}`));
    if (child) await child.waitForOutput(/"event":"group\.join"/, MEMBER_STEP_MS);
    load = produceLoad(cluster.bootstrap, topic, o.records, o.ratePerSecond);
    load.done.catch(() => undefined);
    let written = Infinity;
    load.done.then((p) => (written = p.acked), () => undefined);
    await waitFor('the first records processed', () => processed() >= Math.min(100, o.records / 10), 60_000);
    await o.fault({
      cluster, topic, groupId, processed,
      waitProcessed: (n, timeoutMs = 120_000) => waitFor(`${n} records processed`, () => processed() >= Math.min(n, written), timeoutMs, 250),
      shareCoordinatorOf: (p) => coordinator(COORDINATOR.SHARE, shareStateKey(groupId, topicId, p)),
      groupCoordinator: () => coordinator(COORDINATOR.GROUP, groupId),
      processMember: () => ({
        inFlight: () => readTimeline(join(dir, 'p1.jsonl')).filter((i) => i.end === undefined).length,
        kill: async () => {
          child!.child.kill('SIGKILL');
          kills.push({ member: 'p1', at: Date.now() });
          await child!.exited;
        },
      }),
    });
    const produced = await load.done;
    await cluster.waitHealthy([topic], 120_000);
    // Drained: the broker counts no record unacknowledged, and the members heard every acceptance applied (a killed member's records come back after their locks).
    const lagging = async () => {
      const answer = await admin.send({ coordinatorOf: groupId }, describeShareGroupOffsets(groupId, topic));
      if (answer.errorCode !== 0) return [`the group: ${answer.errorCode} ${answer.errorMessage}`];
      const problems = answer.partitions.filter((p) => p.errorCode !== 0 || p.lag !== 0).map((p) => `${p.partition}: lag ${p.lag}, start offset ${p.startOffset}${p.errorCode ? `, error ${p.errorCode}` : ''}`);
      if (answer.partitions.length < o.partitions) problems.push(`${o.partitions - answer.partitions.length} partitions with no state`);
      return problems;
    };
    // A read that fails meanwhile (a broker still coming back) is asked again; the final one below must succeed.
    const settled = async () => (await figures()).unsettled.length === 0 && (await lagging()).length === 0;
    await waitFor('the share group settled', () => settled().catch(() => false), 180_000, 1_000).catch(() => undefined);
    const brokerLag = await lagging().catch((e: unknown) => [`DescribeShareGroupOffsets failed: ${(e as Error).message}`]);
    await Promise.allSettled(harnesses.map((h, i) => within(`member m${i + 1} stopping`, MEMBER_STEP_MS, h.stop())));
    harnesses.length = 0;
    const destination = await offsets(uniqueName('fault-queue-reader'), failed);
    const result: QueueScenarioResult = {
      name: `queue-${o.name}`, ...(await figures()), brokerLag, acked: produced.acked, producerFailed: produced.failed,
      inDestination: destination.reduce((n, p) => n + p.logEnd, 0), members: o.members + (o.processMember ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000),
    };
    reportQueue(result);
    // Enough to find a cause when the run cannot be repeated (a CI machine's log is all there is).
    for (const key of [...result.unexplained, ...result.deliveredAfterAcceptance, ...result.acceptedTwice, ...result.unsettled].slice(0, 3).map((u) => u.split(':').slice(0, 2).join(':'))) {
      console.log(`[fault:${result.name}] what happened to ${key}:\n  ${queueTrace(key, invocations(), [...acks, ...childAcks()], kills, allAcquisitions()).join('\n  ')}`);
    }
    return result;
  } finally {
    load?.stop();
    child?.child.kill('SIGKILL');
    const stops = await Promise.allSettled(harnesses.map((h, i) => within(`member m${i + 1} stopping`, MEMBER_STEP_MS, h.stop())));
    for (const s of stops) if (s.status === 'rejected') console.log(`[fault:queue-${o.name}] ${(s.reason as Error).message}`);
    await admin.close().catch(() => undefined);
    await deleteTopic(topic);
    await deleteTopic(failed);
  }
}

function reportQueue(r: QueueScenarioResult): void {
  const causes = Object.entries(r.causes).map(([c, n]) => `${n} ${c}`).join(', ') || 'none';
  report(
    `[fault:${r.name}] produced ${r.produced} (producer acked ${r.acked}, failed ${r.producerFailed}), processed ${r.processed}, lost ${r.lost.length}, unsettled ${r.unsettled.length} (${r.outcomeUnknown} whose acceptance's fate is unknown), broker lag on ${r.brokerLag.length} partitions, ` +
      `delivered after acceptance ${r.deliveredAfterAcceptance.length}, accepted twice ${r.acceptedTwice.length}, duplicates ${r.duplicates} (${causes}; unexplained ${r.unexplained.length}), delivery count not raised ${r.countNotRaised}, ` +
      `in the destination ${r.inDestination}, members ${r.members}, ${r.seconds} s`,
    [...r.unexplained, ...r.deliveredAfterAcceptance, ...r.acceptedTwice].slice(0, 10),
    { ...r, lost: r.lost.slice(0, 50), unsettled: r.unsettled.slice(0, 50) },
  );
}
