/**
 * A queue trigger whose principal may not alter the share group's settings (no AlterConfigs on the
 * group, as a least-privilege MSK client), on a group whose delivery limit an operator set below
 * what the trigger's retries need: Sluice reads the limit (DescribeConfigs) and makes fewer
 * deliveries, so a record that keeps failing still reaches the on-failure destination before the
 * broker gives it up. Without that, the broker archived it after its third delivery and it was lost.
 * A broker of its own that enforces ACLs; the trigger reads as `alice` over SASL/SCRAM.
 */
import kafkajs, { type Admin } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { kafkajsShareTransport } from '../../framework/kafka/kafkajs/share-transport.ts';
import { alterGroupConfig } from '../../framework/kafka/share/group-messages.ts';
import { secretEnvName } from '../../framework/kafka/secrets.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopicsWithLeaders, readTopic, testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const { Kafka, logLevel, AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes } = kafkajs;

const PORT = testPort(28710); // SASL_PLAINTEXT on + 2
const ALICE = { name: 'alice', password: 'alice-Limit-secret' };
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sluice-test/queue-limit-alice-AbC123';
const SECRET_VAR = secretEnvName('sluice-test/queue-limit-alice');

let broker: BrokerHandle;
let admin: Admin;
let h: Harness | undefined;
const plain = () => [`127.0.0.1:${PORT}`];

beforeAll(async () => {
  broker = await ensureBroker({ instanceDir: testInstanceDir('kafka-queue-limit'), port: PORT, freshData: true, sasl: { users: [ALICE], authorizer: true }, log: (l) => console.log(`[kafka-queue-limit] ${l}`) });
  admin = new Kafka({ brokers: plain(), clientId: 'queue-limit-test', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
}, 180_000);
afterAll(async () => {
  try {
    await h?.stop();
    await admin?.disconnect();
  } finally {
    delete process.env[SECRET_VAR];
    await broker?.stop();
  }
});

const allow = (resourceType: number, resourceName: string, operation: number) => ({
  resourceType, resourceName, resourcePatternType: ResourcePatternTypes.LITERAL, principal: `User:${ALICE.name}`, host: '*', operation, permissionType: AclPermissionTypes.ALLOW,
});

it('reads a delivery limit it may not raise and sends a failing record to the destination before the broker gives it up', async () => {
  const topic = uniqueName('queue-limit');
  const failed = uniqueName('queue-limit-failed');
  const group = uniqueName('queue-limit-group');
  await createTopicsWithLeaders(admin, [{ topic, numPartitions: 1 }, { topic: failed, numPartitions: 1 }]);
  const { TOPIC, GROUP } = AclResourceTypes;
  const { READ, WRITE, DESCRIBE, DESCRIBE_CONFIGS } = AclOperationTypes;
  // Everything a queue trigger needs but AlterConfigs on the group.
  await admin.createAcls({ acl: [allow(TOPIC, topic, READ), allow(TOPIC, topic, DESCRIBE), allow(TOPIC, failed, WRITE), allow(TOPIC, failed, DESCRIBE), allow(TOPIC, failed, DESCRIBE_CONFIGS), allow(GROUP, group, READ), allow(GROUP, group, DESCRIBE), allow(GROUP, group, DESCRIBE_CONFIGS)] });
  // The operator's settings: a delivery limit of 3, where 4 retries need 6.
  const operator = kafkajsShareTransport(createKafkaClient({ brokers: plain(), logger: testLogger, retries: 3 }));
  expect(await operator.send('any', alterGroupConfig(group, { 'share.delivery.count.limit': '3', 'share.auto.offset.reset': 'earliest' }))).toEqual({ errorCode: 0, errorMessage: null });
  await operator.close();
  const producer = new Kafka({ brokers: plain(), clientId: 'queue-limit-producer', logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  await producer.send({ topic, messages: Array.from({ length: 4 }, (_, i) => ({ value: `v${i}` })) });
  await producer.disconnect();

  process.env[SECRET_VAR] = JSON.stringify({ username: ALICE.name, password: ALICE.password });
  h = await startRecorder({
    topic, consumerGroupId: group, consumptionMode: 'queue', batchSize: 1, bootstrapServers: [broker.saslBootstrap!],
    access: { tls: false, sasl: { mechanism: 'scram-sha-512', secretArn: SECRET_ARN } },
    failure: failurePolicy({ onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }), env: { POISON_OFFSETS: '2' },
  });
  const [sent] = await readTopic(failed, 1, 60_000, plain());
  expect(sent!.value!.toString()).toBe('v2');
  // maximumRetryAttempts unset (4 retries) against a limit of 3: 1 retry, the last delivery one short of the limit.
  expect(sent!.headers['sluice-failure-attempts']?.toString()).toBe('2');
  await waitFor('the other three invoked', () => new Set(h!.seen().flatMap(recordsOf).map((r) => r.offset)).size === 4);
  expect(h.seen().filter((s) => recordsOf(s).some((r) => r.offset === 2))).toHaveLength(2);
}, 180_000);
