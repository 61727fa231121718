/**
 * `node --import tsx bench/share-clients.ts [records] [rounds]`: the measurement behind issue 43's
 * client choice (docs/design/queue-mode.md). The same backlog, drained by one member of a fresh
 * share group accepting every record, by each candidate in turn:
 * - `librdkafka`: the preview share consumer of librdkafka 2.15.1, as the librdkafka engine's binding
 *   builds it, in a small C program (bench/share/rdkafka-share.c, compiled here with `cc`);
 * - `kafkajs-protocol`: the share RPCs of framework/kafka/share/messages.ts sent over kafkajs's
 *   connections, in a plain loop (fetch, decode with kafkajs's record decoder, accept on the next fetch).
 * Each prints records/s from its first record to its last acknowledgement, and CPU per 1,000 records
 * (the C program's own; this process's for kafkajs). Rounds alternate the order.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT, startBenchBroker, stopBenchBroker } from './lib/broker.ts';
import { createTopic, kafkaClient, preload, uniqueName } from './lib/kafka.ts';
import { privateCluster, type PrivateBroker, type PrivateCluster } from '../framework/kafka/kafkajs/private-cluster.ts';
import { alterGroupConfig } from '../framework/kafka/share/group-messages.ts';
import { ACK, metadata, shareFetch, shareGroupHeartbeat, type AckBatch } from '../framework/kafka/share/messages.ts';

const records = Number(process.argv[2] ?? 300_000);
const rounds = Number(process.argv[3] ?? 3);
const MAX_RECORDS = 500;
const require = createRequire(import.meta.url);
const log = (line: string) => console.error(`[share-clients] ${line}`);

const binding = join(REPO_ROOT, 'node_modules', '@confluentinc', 'kafka-javascript');
const program = join(REPO_ROOT, '.sluice', 'rdkafka-share');
execFileSync('cc', ['-O2', '-o', program, join(REPO_ROOT, 'bench', 'share', 'rdkafka-share.c'), `-I${binding}/deps/librdkafka/src`, `-L${binding}/build/deps`, '-l:librdkafka.so.1', `-Wl,-rpath,${binding}/build/deps`]);

const broker = await startBenchBroker(log);
try {
  const kafka = kafkaClient([broker.bootstrap]);
  const topic = uniqueName('share');
  await createTopic(kafka, topic, 6);
  await preload(kafka, topic, { records, partitions: 6, valueBytes: 256 });
  const cluster = privateCluster(kafka);
  if (!cluster) throw new Error('kafkajs keeps its cluster elsewhere: the pinned kafkajs 2.2.4 is needed');
  await cluster.connect();
  await cluster.refreshMetadata();
  const any = await cluster.findBroker({ nodeId: cluster.getNodeIds()[0]! });
  const fresh = async () => {
    const group = uniqueName('share-group');
    const set = await any.connectionPool.send(alterGroupConfig(group, { 'share.auto.offset.reset': 'earliest' }));
    if (set.errorCode) throw new Error(`setting the group's reset: ${set.errorCode} ${set.errorMessage}`);
    return group;
  };
  const result: Record<string, Array<{ perSecond: number; cpuPer1000: number }>> = { librdkafka: [], 'kafkajs-protocol': [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 ? (['kafkajs-protocol', 'librdkafka'] as const) : (['librdkafka', 'kafkajs-protocol'] as const)) {
      const group = await fresh();
      const r = side === 'librdkafka' ? native(broker.bootstrap, topic, group) : await viaKafkajs(cluster, any, topic, group);
      result[side]!.push(r);
      log(`round ${round + 1} ${side}: ${Math.round(r.perSecond)} records/s, ${r.cpuPer1000.toFixed(2)} ms CPU per 1,000 records`);
    }
  }
  for (const [side, rs] of Object.entries(result)) {
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    log(`${side}: median ${Math.round(med(rs.map((r) => r.perSecond)))} records/s, ${med(rs.map((r) => r.cpuPer1000)).toFixed(2)} ms CPU per 1,000 records`);
  }
} finally {
  await stopBenchBroker(log);
}

function native(bootstrap: string, topic: string, group: string): { perSecond: number; cpuPer1000: number } {
  const out = execFileSync(program, [bootstrap, topic, group, String(records), String(MAX_RECORDS)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const r = JSON.parse(out.trim()) as { records: number; ms: number; cpuMs: number };
  return { perSecond: (r.records / r.ms) * 1000, cpuPer1000: (r.cpuMs / r.records) * 1000 };
}

/** One member, one leader (the bench broker): heartbeat until assigned, then fetch, accepting what the last fetch acquired. */
async function viaKafkajs(cluster: PrivateCluster, any: PrivateBroker, topic: string, group: string) {
  const Decoder = require('kafkajs/src/protocol/decoder');
  const decodeMessages = require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages');
  const coordinator = await cluster.findGroupCoordinator({ groupId: group });
  const memberId = randomUUID();
  let hb = await coordinator.connectionPool.send(shareGroupHeartbeat({ groupId: group, memberId, memberEpoch: 0, topics: [topic] }));
  let assigned: number[] = [];
  const beat = async () => {
    hb = await coordinator.connectionPool.send(shareGroupHeartbeat({ groupId: group, memberId, memberEpoch: hb.memberEpoch, topics: null }));
    if (hb.errorCode) throw new Error(`heartbeat: ${hb.errorCode} ${hb.errorMessage}`);
    if (hb.assignment) assigned = hb.assignment.flatMap((a) => a.partitions);
  };
  if (hb.assignment) assigned = hb.assignment.flatMap((a) => a.partitions);
  while (assigned.length === 0) {
    await new Promise((r) => setTimeout(r, 100));
    await beat();
  }
  const timer = setInterval(() => void beat().catch((e) => log(String(e))), hb.heartbeatIntervalMs);
  const meta = await any.connectionPool.send(metadata([topic]));
  const topicId = meta.topics[0]!.topicId;
  const fetcher = await any.connectionPool.getConnection(1);
  let epoch = 0;
  let acks = new Map<number, AckBatch[]>(assigned.map((p) => [p, []]));
  let got = 0;
  let first: { at: number; cpu: NodeJS.CpuUsage } | undefined;
  try {
    while (got < records) {
      const answer = await fetcher.send(
        shareFetch({ groupId: group, memberId, sessionEpoch: epoch, maxWaitMs: 500, minBytes: 1, maxBytes: 50 * 1024 * 1024, maxRecords: MAX_RECORDS, batchSize: MAX_RECORDS, topics: [{ topicId, partitions: [...acks].map(([partition, batches]) => ({ partition, batches })) }], forgotten: [] }, 2),
      );
      if (answer.errorCode) throw new Error(`share fetch: ${answer.errorCode} ${answer.errorMessage}`);
      epoch++;
      acks = new Map();
      for (const t of answer.topics)
        for (const p of t.partitions) {
          if (p.errorCode) throw new Error(`share fetch partition ${p.partition}: ${p.errorCode} ${p.errorMessage}`);
          if (!p.records || p.acquired.length === 0) continue;
          const prefixed = Buffer.allocUnsafe(p.records.length + 4);
          prefixed.writeInt32BE(p.records.length, 0);
          p.records.copy(prefixed, 4);
          const messages = (await decodeMessages(new Decoder(prefixed))) as Array<{ offset: string }>;
          const present = new Set(messages.map((m) => BigInt(m.offset)));
          const batches: AckBatch[] = [];
          for (const a of p.acquired) {
            const types: number[] = [];
            for (let o = a.firstOffset; o <= a.lastOffset; o++) {
              const here = present.has(o);
              types.push(here ? ACK.ACCEPT : ACK.GAP);
              if (here) got++;
            }
            batches.push({ firstOffset: a.firstOffset, lastOffset: a.lastOffset, types: types.every((x) => x === ACK.ACCEPT) ? [ACK.ACCEPT] : (types as AckBatch['types']) });
          }
          acks.set(p.partition, batches);
          first ??= { at: performance.now(), cpu: process.cpuUsage() };
        }
    }
    // The last acknowledgements, with the session's close.
    await fetcher.send(
      shareFetch({ groupId: group, memberId, sessionEpoch: -1, maxWaitMs: 0, minBytes: 0, maxBytes: 0, maxRecords: 0, batchSize: 0, topics: [{ topicId, partitions: [...acks].map(([partition, batches]) => ({ partition, batches })) }], forgotten: [] }, 2),
    ).catch(() => undefined);
  } finally {
    clearInterval(timer);
    await coordinator.connectionPool.send(shareGroupHeartbeat({ groupId: group, memberId, memberEpoch: -1, topics: null })).catch(() => undefined);
  }
  const cpu = process.cpuUsage(first!.cpu);
  return { perSecond: (got / (performance.now() - first!.at)) * 1000, cpuPer1000: ((cpu.user + cpu.system) / 1000 / got) * 1000 };
}
