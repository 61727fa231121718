/**
 * Errors logged and then ignored (issue 24, item 8), the heartbeat half: a heartbeat error that is
 * not a rebalance error (the coordinator unreachable: COORDINATOR_NOT_AVAILABLE, at once) was
 * logged, and the member went on starting chunks while the coordinator, hearing nothing for a
 * session, removed it and gave its partitions to another member: two members on one partition.
 *
 * A broker of its own whose clients all connect through a loopback proxy that reads the protocol;
 * two members of one group, one partition each, a record in each partition that always fails (so
 * chunk after chunk starts, with no commit in between). The proxy then answers every heartbeat of
 * member A with COORDINATOR_NOT_AVAILABLE. Counted: invocations of A on its partition that started
 * after B was given that partition by a later generation than A's own (an overlap).
 */
import { join } from 'node:path';
import kafkajs, { type Admin } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { startKafkaProxy, type KafkaProxy } from '../support/kafka-proxy.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopicsWithLeaders, uniqueName, waitFor } from '../support/kafka.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const INSTANCE_DIR = testInstanceDir('kafka-proxied');
const PORT = testPort(28650); // below Linux's ephemeral range (32768+), so no client socket can hold it
const PROXY_PORT = testPort(28654);
const SESSION_MS = 6_000;

let broker: BrokerHandle;
let proxy: KafkaProxy;
let admin: Admin;
const members: Harness[] = [];

beforeAll(async () => {
  // The proxy first: the broker's readiness probe already follows the advertised port.
  proxy = await startKafkaProxy(PROXY_PORT, PORT);
  broker = await ensureBroker({ instanceDir: INSTANCE_DIR, port: PORT, advertisedPort: PROXY_PORT, freshData: true, log: (l) => console.log(`[kafka-proxied] ${l}`) });
  admin = new kafkajs.Kafka({ brokers: [`127.0.0.1:${PROXY_PORT}`], logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
});
afterAll(async () => {
  for (const m of members) await m.stop().catch(() => undefined);
  await admin?.disconnect();
  await proxy?.close();
  if (broker?.startedHere) await broker.stop();
});

type Join = Harness['joins'][number];
const latestBefore = (joins: Join[], t: number): Join | undefined => joins.filter((j) => j.at <= t).at(-1);

it('a member whose heartbeats fail for longer than the session starts no chunk once another member may own its partition', async () => {
  const topic = uniqueName('session-gone');
  const groupId = uniqueName('session-gone-group');
  await createTopicsWithLeaders(admin, [{ topic, numPartitions: 2 }]);
  const producer = new kafkajs.Kafka({ brokers: [`127.0.0.1:${PROXY_PORT}`], logLevel: kafkajs.logLevel.NOTHING }).producer();
  await producer.connect();
  await producer.send({ topic, messages: [{ value: 'poison-0', partition: 0 }, { value: 'poison-1', partition: 1 }] });
  await producer.disconnect();

  const member = (name: string) =>
    startRecorder({
      topic, consumerGroupId: groupId, bootstrapServers: [`127.0.0.1:${PROXY_PORT}`], batchSize: 1, concurrency: 2,
      timeoutMs: 5_000, sessionTimeoutMs: SESSION_MS, heartbeatIntervalMs: 1_000, maxPollIntervalMs: 30_000, maxConsumerRestarts: 50,
      env: { POISON_OFFSETS: '0', MEMBER: name },
    });
  const a = await member('A');
  members.push(a);
  const b = await member('B');
  members.push(b);
  // Both in one generation, one partition each.
  await waitFor('one partition each', () => {
    const [ja, jb] = [a.joins.at(-1), b.joins.at(-1)];
    return !!ja && !!jb && (ja.assignment[topic]?.length ?? 0) === 1 && (jb.assignment[topic]?.length ?? 0) === 1;
  }, 60_000);
  const own = a.joins.at(-1)!;
  const partition = own.assignment[topic]![0]!;
  await waitFor('A retrying its poison record', () => a.seen().filter((s) => recordsOf(s).some((r) => r.partition === partition)).length >= 2, 30_000);

  const cutAt = Date.now();
  proxy.failHeartbeatsOf.add(own.memberId);
  // Told its member is gone, kafkajs joins again under a new member id; on a busy machine that join can
  // land in the very rebalance that expels the old one and take the partition back before B has it.
  // Its heartbeats fail too, so A as a whole stays cut off and B is given the partition.
  a.events.on('group.join', (e) => proxy.failHeartbeatsOf.add(e.memberId));
  await waitFor('B given A\'s partition', () => (b.joins.at(-1)?.assignment[topic] ?? []).includes(partition) && b.joins.at(-1)!.at > cutAt, 60_000);
  const givenAt = b.joins.findLast((j) => (j.assignment[topic] ?? []).includes(partition))!.at;
  // Long enough for A to have tried its record several times more, had it gone on.
  await new Promise((r) => setTimeout(r, 8_000));

  const overlaps = a.seen()
    .filter((s) => recordsOf(s).some((r) => r.partition === partition))
    .filter((s) => {
      const theirs = latestBefore(b.joins, s.at);
      const mine = latestBefore(a.joins, s.at);
      return !!theirs && (theirs.assignment[topic] ?? []).includes(partition) && (!mine || theirs.at > mine.at);
    });
  const lastOfA = a.seen().filter((s) => recordsOf(s).some((r) => r.partition === partition) && s.at >= cutAt).map((s) => s.at - cutAt);
  console.log(
    `[session-gone] A's heartbeats failed ${proxy.failed.get(own.memberId) ?? 0} times; B given partition ${partition} ${givenAt - cutAt} ms after the cut; ` +
      `A's invocations of it since the cut at +${lastOfA.join(', +')} ms; overlaps: ${overlaps.length}; ` +
      `joins since the cut: ${[...a.joins.map((j) => ({ ...j, who: 'A' })), ...b.joins.map((j) => ({ ...j, who: 'B' }))].filter((j) => j.at >= cutAt).sort((x, y) => x.at - y.at).map((j) => `${j.who}+${j.at - cutAt}:[${j.assignment[topic]?.join(',') ?? ''}]`).join(' ')}`,
  );
  expect(proxy.failed.get(own.memberId) ?? 0).toBeGreaterThan(0);
  expect(overlaps).toEqual([]);
}, 180_000);
