/**
 * MSK IAM against a real broker: a broker of its own with a SASL_SSL listener (a self-signed
 * certificate from openssl, trusted through the trigger's serverRootCaCertificate) that
 * enables only OAUTHBEARER, validated by Kafka's own default, the unsecured validator. The
 * trigger is declared as in serverless.yml (an MSK cluster arn, no SASL secret: IAM).
 * - A token source that returns an unsecured JWT: Sluice negotiates OAUTHBEARER over TLS and
 *   consumes and commits end to end.
 * - AWS's signer with credentials from the SDK's default chain (AWS_* variables): the unsecured
 *   validator rejects the MSK token (a base64url presigned URL, not a JWT). A TLS proxy between
 *   client and broker shows the client asked for OAUTHBEARER and sent exactly the signer's token
 *   as the broker's SaslAuthenticate bytes, and the start fails in one line without the token.
 * What a real MSK broker does with the token (checking the signature against IAM) needs AWS.
 * SLUICE_TEST_ENGINE=librdkafka (npm run test:engines) runs the triggers on the librdkafka engine,
 * whose member also gets the signer's token refused and a certificate it does not trust, on its own.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveService } from '../../framework/config/load.ts';
import type { TriggerSpec } from '../../framework/config/types.ts';
import { isConfigError } from '../../framework/errors.ts';
import { createLocalInvoker } from '../../framework/invoke/local.ts';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { createRdkafkaMember } from '../../framework/kafka/rdkafka/member.ts';
import { mskIamTokens, type MskTokenSource } from '../../framework/kafka/msk-iam.ts';
import { RecordProducer } from '../../framework/kafka/kafkajs/producer.ts';
import type { IamOptions, KafkaSecurity } from '../../framework/kafka/security.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { runService } from '../../framework/poller/service-runner.ts';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { engineUnderTest, FIXTURES, recordsOf, type Seen } from '../support/harness.ts';
import { testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { API_KEYS, authBytes, captureProxy, handshakeMechanism, selfSignedCertificate, type CaptureProxy, type TestCertificate } from '../support/tls-capture.ts';
import { testInstanceDir, testPort } from '../support/ports.ts';

const INSTANCE_DIR = testInstanceDir('kafka-msk-iam');
const PORT = testPort(27110); // controller 27111, SASL_SSL/OAUTHBEARER 27113
const PROXY_PORT = testPort(27120);
const CLUSTER = 'arn:aws:kafka:eu-west-1:123456789012:cluster/local/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2';
const CA_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sluice-test/kafka-ca-AbC123';
const CA_VAR = 'SLUICE_SECRET_SLUICE_TEST_KAFKA_CA';
const KEY = { id: 'AKIDEXAMPLE', secret: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const MEMBER_PROXY_PORT = testPort(27121);
const AT = 'functions.recorder.events[0].sluice';
const { engine, groupProtocol } = engineUnderTest();
/** The engine's keys as serverless.yml spells them; none for kafkajs, the default. */
const engineKeys = engine === 'librdkafka' ? { engine, groupProtocol } : {};

/** An unsecured JWT (alg none) as Kafka's OAuthBearerUnsecuredValidatorCallbackHandler accepts it. */
function unsecuredJwt(sub: string): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: 'none' })}.${b64({ sub, iat: now - 5, exp: now + 900 })}.`;
}
/** Wraps a source to record what it hands out. */
function observed(source: MskTokenSource, handedOut: string[]): MskTokenSource {
  return { token: async () => { const t = await source.token(); handedOut.push(t); return t; }, issued: () => source.issued() };
}

describe('MSK IAM over SASL/OAUTHBEARER', () => {
  let broker: BrokerHandle;
  let certificate: TestCertificate;
  let proxy: CaptureProxy | undefined;
  const plain = () => createKafkaClient({ brokers: [broker.bootstrap], logger: testLogger, retries: 2 });
  beforeAll(async () => {
    certificate = selfSignedCertificate();
    broker = await ensureBroker({ instanceDir: INSTANCE_DIR, port: PORT, freshData: true, oauthBearer: { keystorePemFile: certificate.keystorePemFile }, log: (l) => console.log(`[kafka-msk-iam] ${l}`) });
    process.env[CA_VAR] = JSON.stringify({ certificate: certificate.cert });
  });
  afterAll(async () => {
    delete process.env[CA_VAR];
    await proxy?.close();
    if (broker?.startedHere) await broker.stop();
  });

  async function topicWith(records: number): Promise<string> {
    const topic = uniqueName('msk-iam');
    const admin = await ClusterAdmin.connect(plain(), [broker.bootstrap]);
    await admin.ensureTopics([{ topic, partitions: 2 }]);
    await admin.disconnect();
    const producer = await RecordProducer.connect(plain());
    await producer.send(topic, Array.from({ length: records }, (_, i) => ({ key: `k${i}`, value: `v${i}`, partition: i % 2 })));
    await producer.disconnect();
    return topic;
  }

  /** As serverless.yml declares it: the cluster's arn, its brokers, the CA to trust; no SASL secret, so IAM. */
  function trigger(topic: string, brokers: string, recordFile: string): TriggerSpec {
    const sluice = { topic, arn: CLUSTER, bootstrapServers: brokers, batchSize: 10, maximumBatchingWindow: 0, consumerGroupId: uniqueName('msk-iam-group'), accessConfigurations: { serverRootCaCertificate: CA_ARN }, ...engineKeys };
    const doc = { service: 'iam', provider: { name: 'aws' }, functions: { recorder: { handler: 'functions/recorder.handler', environment: { RECORD_FILE: recordFile }, events: [{ sluice }] } } };
    return resolveService(doc, { rootDir: FIXTURES, env: {} }).triggers[0]!;
  }

  async function start(t: TriggerSpec, iam: IamOptions, lines: string[]) {
    const logger = createLogger('msk-iam', { level: 'debug', format: 'json', write: (l) => lines.push(l) });
    const invoker = createLocalInvoker({ rootDir: FIXTURES, service: 'iam', stage: 'test', region: 'eu-west-1', logger, output: () => undefined, functions: [t] });
    try {
      return { invoker, running: await runService({ triggers: [t], invoker, logger, events: new Instrumentation(), retries: 1, iam }) };
    } catch (e) {
      await invoker.close();
      throw e;
    }
  }

  it('negotiates OAUTHBEARER over TLS and consumes and commits end to end with the provider\'s token', async () => {
    const topic = await topicWith(30);
    const t = trigger(topic, broker.oauthBearerBootstrap!, join(mkdtempSync(join(tmpdir(), 'sluice-iam-')), 'seen.jsonl'));
    expect(t.access).toEqual({ tls: true, iam: { clusterArn: CLUSTER }, rootCaSecretArn: CA_ARN });
    expect(t.engine).toBe(engine);
    const handedOut: string[] = [];
    const jwt: MskTokenSource = { token: async () => unsecuredJwt('orders-poller'), issued: () => handedOut.slice(-2) };
    const lines: string[] = [];
    const { invoker, running } = await start(t, { tokens: () => observed(jwt, handedOut) }, lines);
    const admin = await ClusterAdmin.connect(plain(), [broker.bootstrap]);
    try {
      await waitFor('all committed', async () => (await admin.offsets(t.consumerGroupId, topic)).every((p) => p.committed === 15), 60_000);
    } finally {
      await running.stop();
      await invoker.close();
    }
    expect(await admin.offsets(t.consumerGroupId, topic)).toEqual([{ partition: 0, committed: 15, logEnd: 15 }, { partition: 1, committed: 15, logEnd: 15 }]);
    await admin.disconnect();
    const seen = readFileSync(t.environment.RECORD_FILE!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Seen);
    expect(new Set(seen.flatMap(recordsOf).map((r) => Buffer.from(r.value!, 'base64').toString())).size).toBe(30);
    expect(seen[0]!.event).toMatchObject({ eventSource: 'aws:kafka', eventSourceArn: CLUSTER, bootstrapServers: broker.oauthBearerBootstrap });
    const log = lines.join('\n');
    expect(log).toContain('SASL/OAUTHBEARER (MSK IAM, eu-west-1), TLS');
    expect(handedOut.length).toBeGreaterThan(1); // admin, consumer, … each authenticate with the provider's token
    for (const token of handedOut) expect(log).not.toContain(token);
    // librdkafka's consumer negotiated OAUTHBEARER with the callback's token (its own debug line; the principal is what Sluice tells it).
    if (engine === 'librdkafka') expect(log).toContain('SASL OAUTHBEARER authentication successful (principal=msk-iam)');
    // Kafka's own validator accepted the provider's token and took its subject as the principal.
    expect(readFileSync(broker.logFile, 'utf8')).toContain('Successfully validated token with principal orders-poller');
    console.log(`[msk-iam] 30 records consumed and committed over SASL_SSL/OAUTHBEARER; ${handedOut.length} authentications with the provider's token; ${lines.length} debug lines, no token in them`);
  });

  it("sends AWS's signed token from the default credential chain; the unsecured validator refuses it, in one line without the token", async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', KEY.id);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', KEY.secret);
    vi.stubEnv('AWS_SESSION_TOKEN', '');
    vi.stubEnv('AWS_PROFILE', '');
    try {
      proxy = await captureProxy({ port: PROXY_PORT, target: { host: '127.0.0.1', port: PORT + 3 }, certificate });
      const topic = await topicWith(1);
      const t = trigger(topic, `127.0.0.1:${PROXY_PORT}`, join(tmpdir(), 'unused.jsonl'));
      const handedOut: string[] = [];
      const lines: string[] = [];
      const error = await start(t, { tokens: (o) => observed(mskIamTokens(o), handedOut) }, lines).then(
        async ({ invoker, running }) => (await running.stop(), await invoker.close(), undefined),
        (e: unknown) => e as Error,
      );
      // The client asked for OAUTHBEARER and sent exactly the signer's token, framed as RFC 7628 says.
      const requests = proxy.requests();
      const mechanisms = requests.filter((r) => r.apiKey === API_KEYS.saslHandshake).map(handshakeMechanism);
      const sent = requests.filter((r) => r.apiKey === API_KEYS.saslAuthenticate).map((r) => authBytes(r).toString('utf8'));
      expect(mechanisms.length).toBeGreaterThan(0);
      expect(new Set(mechanisms)).toEqual(new Set(['OAUTHBEARER']));
      // Each refused exchange is ended with 0x01 as RFC 7628 asks (kafkajs's own OAUTHBEARER does not, see oauth-bearer.ts).
      const initial = sent.filter((b) => b.startsWith('n,,'));
      expect(initial.length).toBeGreaterThan(0);
      expect(sent.filter((b) => b === '\u0001')).toHaveLength(initial.length);
      expect(initial.length * 2).toBe(sent.length);
      for (const bytes of initial) {
        const token = /^n,,\u0001auth=Bearer ([A-Za-z0-9_-]+)\u0001\u0001$/.exec(bytes)?.[1];
        expect(handedOut).toContain(token);
        const url = new URL(Buffer.from(token!, 'base64url').toString('utf8'));
        expect(url.host).toBe('kafka.eu-west-1.amazonaws.com');
        expect(url.searchParams.get('Action')).toBe('kafka-cluster:Connect');
        expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/kafka-cluster\/aws4_request$/);
      }
      // The broker's validator refused it, and the start says so in one line naming the trigger.
      expect(isConfigError(error)).toBe(true);
      expect(error!.message).toMatch(
        new RegExp(String.raw`^functions\.recorder\.events\[0\]\.sluice: Kafka at 127\.0\.0\.1:${PROXY_PORT} refused the MSK IAM token \(.*SASL OAUTHBEARER authentication failed.*\)\. Check that the AWS credentials' role is allowed kafka-cluster:Connect on arn:aws:kafka:eu-west-1:`),
      );
      expect(error!.message).not.toContain('\n');
      for (const text of [error!.message, ...lines]) {
        for (const token of handedOut) expect(text).not.toContain(token);
        expect(text).not.toContain(KEY.secret);
      }
      const brokerLog = readFileSync(broker.logFile, 'utf8');
      expect(brokerLog).toMatch(new RegExp(String.raw`Failed authentication with \/127\.0\.0\.1 \(channelId=127\.0\.0\.1:${PORT + 3}-[^)]*\) \(\{"status":"invalid_token"\}\)`));
      console.log(`[msk-iam] ${initial.length} SaslAuthenticate request(s) carried the signer's token (${handedOut[0]!.length} chars); the broker refused:\n  ${error!.message}`);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  /** librdkafka's member on its own (the service's start checks the brokers with kafkajs's admin first), logging into `lines`. */
  const rdkafkaMember = (brokers: string, security: KafkaSecurity, lines: string[]) =>
    createRdkafkaMember({
      brokers: [brokers], clientId: 'sluice-recorder', groupProtocol: 'consumer', askedBy: AT, security,
      groupId: uniqueName('msk-iam-member-group'), topic: uniqueName('msk-iam-member'), fromBeginning: true, sessionTimeoutMs: 30_000, rebalanceTimeoutMs: 60_000,
      heartbeatIntervalMs: 3_000, maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 1_048_576, concurrency: 1, events: new Instrumentation(),
      logger: createLogger('msk-iam', { level: 'debug', format: 'json', write: (l) => lines.push(l) }),
      onBatch: async () => undefined, onCrash: () => undefined,
    });
  async function failedStart(member: ReturnType<typeof rdkafkaMember>): Promise<{ error: Error | undefined; tookMs: number }> {
    const started = Date.now();
    const error = await member.start().then(() => undefined, (e: unknown) => e as Error);
    const tookMs = Date.now() - started;
    await member.stop();
    return { error, tookMs };
  }

  it.skipIf(engine !== 'librdkafka')("regression: librdkafka's member sends the signer's token through oauthbearer_token_refresh_cb and fails at start, at once, when it is refused", async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', KEY.id);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', KEY.secret);
    vi.stubEnv('AWS_SESSION_TOKEN', '');
    vi.stubEnv('AWS_PROFILE', '');
    const memberProxy = await captureProxy({ port: MEMBER_PROXY_PORT, target: { host: '127.0.0.1', port: PORT + 3 }, certificate });
    try {
      const handedOut: string[] = [];
      const tokens = observed(mskIamTokens({ region: 'eu-west-1', path: AT }), handedOut);
      const lines: string[] = [];
      const { error, tookMs } = await failedStart(rdkafkaMember(`127.0.0.1:${MEMBER_PROXY_PORT}`, { iam: { region: 'eu-west-1', tokens }, ssl: { ca: [certificate.cert] } }, lines));
      // librdkafka asked for OAUTHBEARER and sent exactly the signer's token, framed as RFC 7628 says, and ended the refused exchange with 0x01.
      const requests = memberProxy.requests();
      expect(new Set(requests.filter((r) => r.apiKey === API_KEYS.saslHandshake).map(handshakeMechanism))).toEqual(new Set(['OAUTHBEARER']));
      const sent = requests.filter((r) => r.apiKey === API_KEYS.saslAuthenticate).map((r) => authBytes(r).toString('utf8'));
      const initial = sent.filter((b) => b.startsWith('n,,'));
      expect(initial.length).toBeGreaterThan(0);
      for (const bytes of initial) expect(handedOut).toContain(/^n,,\u0001auth=Bearer ([A-Za-z0-9_-]+)\u0001\u0001$/.exec(bytes)?.[1]);
      expect(sent.filter((b) => b === '\u0001').length).toBeGreaterThan(0);
      expect(isConfigError(error)).toBe(true);
      expect(error!.message).toMatch(
        new RegExp(String.raw`^functions\.recorder\.events\[0\]\.sluice: Kafka at 127\.0\.0\.1:${MEMBER_PROXY_PORT} refused the MSK IAM token \(SASL authentication error: \{"status":"invalid_token"\}\)\. Check that the AWS credentials' role is allowed kafka-cluster:Connect`),
      );
      for (const text of [error!.message, ...lines]) {
        for (const token of handedOut) expect(text).not.toContain(token);
        expect(text).not.toContain(KEY.secret);
      }
      console.log(`[msk-iam] librdkafka's member: the signer's token sent ${initial.length} time(s), refused at start in ${tookMs} ms:\n  ${error!.message}`);
    } finally {
      vi.unstubAllEnvs();
      await memberProxy.close();
    }
  });

  it.skipIf(engine !== 'librdkafka')("regression: librdkafka's member fails at start, at once, when it does not trust the brokers' certificate", async () => {
    const stranger = selfSignedCertificate();
    const lines: string[] = [];
    const jwt: MskTokenSource = { token: async () => unsecuredJwt('orders-poller'), issued: () => [] };
    const { error, tookMs } = await failedStart(rdkafkaMember(broker.oauthBearerBootstrap!, { iam: { region: 'eu-west-1', tokens: jwt }, ssl: { ca: [stranger.cert] } }, lines));
    expect(isConfigError(error)).toBe(true);
    expect(error!.message).toMatch(
      new RegExp(String.raw`^functions\.recorder\.events\[0\]\.sluice: Kafka at 127\.0\.0\.1:${PORT + 3}: the TLS handshake failed \(.*certificate verify failed.*\)\. Check that serverRootCaCertificate holds the CA`),
    );
    console.log(`[msk-iam] librdkafka's member with a CA the broker's certificate does not chain to, refused at start in ${tookMs} ms:\n  ${error!.message}`);
  });

  it("regression: kafkajs 2.2.4's own OAUTHBEARER calls a refused token a success and then loses the connection (why oauth-bearer.ts replaces it)", async () => {
    const said: string[] = [];
    const kafka = new Kafka({
      brokers: [broker.oauthBearerBootstrap!], ssl: { ca: [certificate.cert] }, connectionTimeout: 2000, retry: { retries: 0 },
      sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: 'not-a-jwt' }) },
      logLevel: logLevel.DEBUG, logCreator: () => (entry) => said.push(entry.log.message),
    });
    const admin = kafka.admin();
    const error = await admin.connect().then(() => admin.describeCluster()).then(() => undefined, (e: unknown) => e as Error);
    await admin.disconnect();
    expect(said).toContain('SASL OAUTHBEARER authentication successful');
    expect(error?.name).not.toBe('KafkaJSSASLAuthenticationError');
    console.log(`[msk-iam] bare kafkajs with a refused token: "SASL OAUTHBEARER authentication successful", then ${error?.name}: ${error?.message}`);
  });
});
