/**
 * Errors logged and then ignored (issue 24, item 8): a commit the coordinator refused for good
 * (an ACL change: GROUP_ or TOPIC_AUTHORIZATION_FAILED) was logged and left as a refused commit,
 * and the member could fetch and invoke on, record after record, with zero commits. The member
 * now stops on such a refusal (group-member.ts). Measured on the code before that fix too: it
 * held there as well, because Kafka's OffsetCommit needs the group's READ and the topic's READ,
 * exactly what Heartbeat and Fetch need, so the same ACL change refuses kafkajs's own next
 * heartbeat or fetch, which crashes its consumer. This test holds the outcome for either path.
 *
 * A broker of its own that enforces ACLs (StandardAuthorizer; the plain listener's principal is a
 * super user, so the test grants and revokes through it) and a trigger that reads as `alice` over
 * SASL/SCRAM, as a least-privilege MSK client would. Mid-run the group's READ is revoked while
 * records keep arriving, then granted again. While it is revoked, at most the batch whose commit
 * was refused may run beyond the last commit; afterwards every record is invoked and committed,
 * and each record invoked twice is one of that batch's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs, { type Admin, type ITopicConfig } from 'kafkajs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopicsWithLeaders, uniqueName, untilAnswered, waitFor } from '../support/kafka.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const { Kafka, logLevel, AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes } = kafkajs;

const INSTANCE_DIR = testInstanceDir('kafka-acl');
const PORT = testPort(28640); // SASL_PLAINTEXT on 28642; below Linux's ephemeral range (32768+), so no client socket can hold it
const ALICE = { name: 'alice', password: 'alice-Acl-secret' };
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sluice-test/kafka-acl-alice-AbC123';
const SECRET_VAR = 'SLUICE_SECRET_SLUICE_TEST_KAFKA_ACL_ALICE';
const BATCH = 5;

let broker: BrokerHandle;
let admin: Admin;
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});
const kafka = () => new Kafka({ brokers: [`127.0.0.1:${PORT}`], clientId: 'acl-test', logLevel: logLevel.NOTHING });

beforeAll(async () => {
  broker = await ensureBroker({ instanceDir: INSTANCE_DIR, port: PORT, freshData: true, sasl: { users: [ALICE], authorizer: true }, log: (l) => console.log(`[kafka-acl] ${l}`) });
  admin = kafka().admin();
  await admin.connect();
});
afterAll(async () => {
  await admin?.disconnect();
  delete process.env[SECRET_VAR];
  if (broker?.startedHere) await broker.stop();
});

const allow = (resourceType: number, resourceName: string, operation: number) => ({
  resourceType, resourceName, resourcePatternType: ResourcePatternTypes.LITERAL,
  principal: `User:${ALICE.name}`, host: '*', operation, permissionType: AclPermissionTypes.ALLOW,
});

async function produce(topic: string, from: number, count: number): Promise<void> {
  const producer = kafka().producer();
  await producer.connect();
  await producer.send({ topic, messages: Array.from({ length: count }, (_, i) => ({ value: `v${from + i}` })) });
  await producer.disconnect();
}

async function committed(groupId: string, topic: string): Promise<number> {
  const [t] = await untilAnswered(() => admin.fetchOffsets({ groupId, topics: [topic] }));
  return Number(t!.partitions[0]!.offset);
}

it.each(['group', 'topic'] as const)('the %s\'s READ revoked mid-run: the member stops instead of invoking on without commits; every record runs once the ACL is back', async (revoked) => {
  const topic = uniqueName('acl');
  const groupId = uniqueName('acl-group');
  await createTopicsWithLeaders(admin, [{ topic, numPartitions: 1 } satisfies ITopicConfig]);
  const groupRead = allow(AclResourceTypes.GROUP, groupId, AclOperationTypes.READ);
  const topicRead = allow(AclResourceTypes.TOPIC, topic, AclOperationTypes.READ);
  const acl = revoked === 'group' ? groupRead : topicRead;
  await admin.createAcls({ acl: [topicRead, allow(AclResourceTypes.TOPIC, topic, AclOperationTypes.DESCRIBE), groupRead] });
  await produce(topic, 0, 10);

  process.env[SECRET_VAR] = JSON.stringify({ username: ALICE.name, password: ALICE.password });
  const crashes: string[] = [];
  h = await startRecorder({
    topic, consumerGroupId: groupId, bootstrapServers: [broker.saslBootstrap!], access: { tls: false, sasl: { mechanism: 'scram-sha-512', secretArn: SECRET_ARN } },
    batchSize: BATCH, concurrency: 1, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 1_000, maxPollIntervalMs: 60_000, maxConsumerRestarts: 50,
    recordFile: join(mkdtempSync(join(tmpdir(), 'sluice-acl-')), 'seen.jsonl'), env: { SLEEP_MS: '300' },
  });
  h.events.on('group.crash', (e) => crashes.push(e.error.message));
  await waitFor('the first 10 committed', async () => (await committed(groupId, topic)) === 10, 60_000);

  await admin.deleteAcls({ filters: [acl] });
  const revokedAt = Date.now();
  await produce(topic, 10, 20);
  // The member stops on the refusal (awaited: how soon librdkafka reports a topic's READ gone varies
  // with the machine's load), then goes on for long enough for the old behaviour to have invoked all
  // 20 (4 batches of 300 ms) several times over.
  await waitFor('the member to stop on the authorization failure', () => crashes.some((m) => /authoriz/i.test(m)), 60_000);
  await new Promise((r) => setTimeout(r, 10_000));
  const whileRevoked = new Set(h.seen().filter((s) => s.at >= revokedAt).flatMap(recordsOf).map((r) => r.offset));
  const committedWhileRevoked = await committed(groupId, topic);
  console.log(`[acl] while the ${revoked}'s READ was revoked: offsets invoked ${JSON.stringify([...whileRevoked].sort((a, b) => a - b))}, committed ${committedWhileRevoked}, member stops: ${crashes.length} (${crashes[0] ?? 'none'})`);
  expect(committedWhileRevoked).toBe(10);
  expect(whileRevoked.size).toBeLessThanOrEqual(BATCH);
  expect(crashes.some((m) => /authoriz/i.test(m))).toBe(true);

  await admin.createAcls({ acl: [acl] });
  await waitFor('all 30 committed once the ACL is back', async () => (await committed(groupId, topic)) === 30, 120_000);
  const values = h.seen().flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString());
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  expect(new Set(values)).toEqual(new Set(Array.from({ length: 30 }, (_, i) => `v${i}`)));
  // A record invoked twice is one invoked while the ACL was gone, whose commit was refused.
  const twice = [...counts].filter(([, n]) => n > 1).map(([v]) => Number(v.slice(1)));
  console.log(`[acl] after the ${revoked}'s READ came back: 30 of 30 invoked, committed 30, invoked twice: ${JSON.stringify(twice)}`);
  for (const offset of twice) expect(whileRevoked.has(offset)).toBe(true);
}, 240_000);
