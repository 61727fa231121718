/**
 * accessConfigurations against a real broker that demands SASL: a broker of its own (not the
 * shared test broker) with a SASL_PLAINTEXT listener whose SCRAM users are created when its
 * storage is formatted. The trigger's secret comes from SLUICE_SECRET_<NAME>, as on a laptop.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../framework/config/load.ts';
import type { TriggerSpec } from '../../framework/config/types.ts';
import { isConfigError } from '../../framework/errors.ts';
import { createLocalInvoker } from '../../framework/invoke/local.ts';
import { ClusterAdmin } from '../../framework/kafka/admin.ts';
import { createKafkaClient } from '../../framework/kafka/client.ts';
import { RecordProducer } from '../../framework/kafka/producer.ts';
import type { SaslCredentials } from '../../framework/kafka/security.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { runService } from '../../framework/poller/service-runner.ts';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { FIXTURES, recordsOf, type Seen } from '../support/harness.ts';
import { testLogger, uniqueName, waitFor } from '../support/kafka.ts';

const INSTANCE_DIR = join(fileURLToPath(new URL('../..', import.meta.url)), '.sluice', 'kafka-sasl');
const PORT = 39590; // SASL_PLAINTEXT on 39592
const ALICE = { name: 'alice', password: 'alice-Sc4am-secret' };
const WRONG = 'not-alices-password';
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sluice-test/kafka-alice-AbC123';
const SECRET_VAR = 'SLUICE_SECRET_SLUICE_TEST_KAFKA_ALICE';
const secretJson = (password: string) => JSON.stringify({ username: ALICE.name, password });

describe('SASL/SCRAM from accessConfigurations', () => {
  let broker: BrokerHandle;
  let sasl: string;
  beforeAll(async () => {
    broker = await ensureBroker({ instanceDir: INSTANCE_DIR, port: PORT, freshData: true, sasl: { users: [ALICE] }, log: (l) => console.log(`[kafka-sasl] ${l}`) });
    sasl = broker.saslBootstrap!;
  });
  afterAll(async () => {
    delete process.env[SECRET_VAR];
    if (broker?.startedHere) await broker.stop();
  });

  const client = (credentials: SaslCredentials) => createKafkaClient({ brokers: [sasl], logger: testLogger, retries: 2, sasl: credentials });
  const scram512 = (password = ALICE.password): SaslCredentials => ({ mechanism: 'scram-sha-512', username: ALICE.name, password });
  async function withAdmin<T>(fn: (admin: ClusterAdmin) => Promise<T>): Promise<T> {
    const admin = await ClusterAdmin.connect(client(scram512()), [sasl]);
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect();
    }
  }

  /** The trigger as serverless.yml declares it, through the real config loader. */
  function trigger(topic: string, recordFile: string): TriggerSpec {
    const [t] = resolveService(
      {
        service: 'sasl',
        provider: { name: 'aws' },
        functions: {
          recorder: {
            handler: 'functions/recorder.handler',
            environment: { RECORD_FILE: recordFile },
            events: [{ sluice: { topic, bootstrapServers: [sasl], batchSize: 10, maximumBatchingWindow: 0, consumerGroupId: uniqueName('sasl-group'), tls: false, accessConfigurations: { saslScram512Auth: [SECRET_ARN] } } }],
          },
        },
      },
      { rootDir: FIXTURES, env: {} },
    ).triggers;
    return t!;
  }

  async function start(t: TriggerSpec, lines: string[]) {
    const logger = createLogger('sasl', { level: 'debug', format: 'json', write: (l) => lines.push(l) });
    const invoker = createLocalInvoker({
      rootDir: FIXTURES, service: 'sasl', stage: 'test', region: 'us-east-1', logger, output: () => undefined,
      functions: [t],
    });
    try {
      return { invoker, running: await runService({ triggers: [t], invoker, logger, events: new Instrumentation(), retries: 2 }) };
    } catch (e) {
      await invoker.close();
      throw e;
    }
  }

  it('consumes and commits with the credentials from SLUICE_SECRET_<NAME>, and never logs the password', async () => {
    process.env[SECRET_VAR] = secretJson(ALICE.password);
    const topic = uniqueName('sasl');
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: 2 }]));
    const producer = await RecordProducer.connect(client(scram512()));
    await producer.send(topic, Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: `v${i}`, partition: i % 2 })));
    await producer.disconnect();

    const t = trigger(topic, join(mkdtempSync(join(tmpdir(), 'sluice-sasl-')), 'seen.jsonl'));
    expect(t.access).toEqual({ tls: false, sasl: { mechanism: 'scram-sha-512', secretArn: SECRET_ARN } });
    const lines: string[] = [];
    const { invoker, running } = await start(t, lines);
    try {
      await waitFor('all committed', async () => (await withAdmin((a) => a.offsets(t.consumerGroupId, topic))).every((p) => p.committed === p.logEnd && p.logEnd === 15), 60_000);
    } finally {
      await running.stop();
      await invoker.close();
    }
    const file = t.environment.RECORD_FILE!;
    const seen = (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []).map((l) => JSON.parse(l) as Seen);
    expect(new Set(seen.flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString())).size).toBe(30);
    expect(await withAdmin((a) => a.offsets(t.consumerGroupId, topic))).toEqual([
      { partition: 0, committed: 15, logEnd: 15 },
      { partition: 1, committed: 15, logEnd: 15 },
    ]);
    const log = lines.join('\n');
    expect(log).toContain('SASL/SCRAM-SHA-512 as alice, plaintext');
    expect(lines.length).toBeGreaterThan(50); // debug level: kafkajs's connection and fetch lines are all there
    expect(log).not.toContain(ALICE.password);
  });

  it('fails at start on a wrong password, saying so without the password', async () => {
    process.env[SECRET_VAR] = secretJson(WRONG);
    const topic = uniqueName('sasl-wrong');
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: 1 }]));
    const lines: string[] = [];
    const error = await start(trigger(topic, join(tmpdir(), 'unused.jsonl')), lines).then(
      async ({ invoker, running }) => (await running.stop(), await invoker.close(), undefined),
      (e: unknown) => e as Error,
    );
    expect(isConfigError(error)).toBe(true);
    expect(error?.message).toMatch(/^Kafka at 127\.0\.0\.1:39592 refused the credentials \(SASL SCRAM SHA512 authentication failed/);
    expect(error?.message).toContain('Check the username and password in the secret that accessConfigurations names');
    for (const text of [error?.message ?? '', ...lines]) {
      expect(text).not.toContain(WRONG);
      expect(text).not.toContain(ALICE.password);
    }
  });

  it('fails at start when the secret is not in the environment, naming the variable', async () => {
    delete process.env[SECRET_VAR];
    const error = await start(trigger(uniqueName('sasl-none'), join(tmpdir(), 'unused.jsonl')), []).then(() => undefined, (e: unknown) => e as Error);
    expect(isConfigError(error)).toBe(true);
    expect(error?.message).toContain(`functions.recorder.events[0].sluice.accessConfigurations.saslScram512Auth: no value for the secret ${SECRET_ARN}: set the environment variable ${SECRET_VAR}`);
  });

  it('authenticates with PLAIN and SCRAM-SHA-256 on the same listener, and refuses no credentials', async () => {
    for (const mechanism of ['plain', 'scram-sha-256'] as const) {
      const admin = await ClusterAdmin.connect(client({ mechanism, username: ALICE.name, password: ALICE.password }), [sasl]);
      await admin.disconnect();
    }
    const anonymous = await ClusterAdmin.connect(createKafkaClient({ brokers: [sasl], logger: testLogger, retries: 0, connectionTimeoutMs: 1000 }), [sasl]).then(
      async (a) => (await a.disconnect(), undefined),
      (e: unknown) => e,
    );
    expect(anonymous).toBeInstanceOf(Error);
  });
});
