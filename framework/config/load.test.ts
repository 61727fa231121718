import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadService, resolveService, type ResolveOptions } from './load.ts';
import type { TriggerSpec } from './types.ts';
import { configErrorMessage } from './testing.ts';

const ROOT = '/srv/shop';
const options: ResolveOptions = { rootDir: ROOT, env: {} };

function service(functions: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { service: 'shop', provider: { name: 'aws' }, functions, ...extra };
}
const orders = (sluice: unknown, fn: Record<string, unknown> = {}) => ({ orders: { handler: 'functions/orders.handler', events: [{ sluice }], ...fn } });
const only = (doc: unknown, opts: ResolveOptions = options): TriggerSpec => {
  const [trigger, ...rest] = resolveService(doc, opts).triggers;
  expect(rest).toEqual([]);
  if (trigger === undefined) throw new Error('no trigger');
  return trigger;
};

const errorOf = configErrorMessage;

describe('resolveService', () => {
  it('applies every default', () => {
    expect(resolveService(service(orders({ topic: 'orders' })), options)).toEqual({
      service: 'shop',
      stage: 'dev',
      region: 'us-east-1',
      rootDir: ROOT,
      triggers: [
        {
          functionName: 'orders',
          handler: 'functions/orders.handler',
          timeoutMs: 6000,
          memorySizeMb: 1024,
          environment: {},
          topic: 'orders',
          bootstrapServers: undefined,
          batchSize: 100,
          parallelizationFactor: 1,
          engine: 'kafkajs',
          groupProtocol: 'classic',
          maximumBatchingWindowMs: 500,
          startingPosition: 'TRIM_HORIZON',
          consumerGroupId: 'sluice-shop-orders',
          enabled: true,
          maxPollIntervalMs: 300_000,
          sessionTimeoutMs: 30_000,
          heartbeatIntervalMs: 3_000,
          concurrency: 4,
          maxConsumerRestarts: 8,
          failure: {
            maximumRetryAttempts: -1,
            maximumRecordAgeMs: undefined,
            bisectBatchOnFunctionError: false,
            reportBatchItemFailures: false,
            onFailure: undefined,
          },
          filterPatterns: [],
          path: 'functions.orders.events[0].sluice',
        },
      ],
    });
  });

  it('converts seconds to milliseconds and keeps what is set', () => {
    const trigger = only(service(orders(
      { topic: 'orders', batchSize: 500, maximumBatchingWindow: 5, startingPosition: 'AT_TIMESTAMP', startingPositionTimestamp: 1_700_000_000.5, consumerGroupId: 'orders-processor', enabled: false },
      { timeout: 30, memorySize: 256 },
    )));
    expect(trigger).toMatchObject({
      timeoutMs: 30_000, memorySizeMb: 256, batchSize: 500, maximumBatchingWindowMs: 5000,
      startingPosition: 'AT_TIMESTAMP', startingPositionTimestampMs: 1_700_000_000_500, consumerGroupId: 'orders-processor', enabled: false,
    });
  });

  it('takes timeout, memory and environment from the provider, the function winning', () => {
    const doc = service(orders({ topic: 'orders' }, { environment: { B: 'fn', C: 3 } }), {
      provider: { name: 'aws', stage: 'qa', region: 'eu-west-1', timeout: 20, memorySize: 512, environment: { A: true, B: 'provider', D: null } },
    });
    const spec = resolveService(doc, options);
    expect(spec).toMatchObject({ stage: 'qa', region: 'eu-west-1' });
    expect(spec.triggers[0]).toMatchObject({ timeoutMs: 20_000, memorySizeMb: 512, environment: { A: 'true', B: 'fn', C: '3' } });
    expect(resolveService(doc, { ...options, stage: 'prod' }).stage).toBe('prod');
  });

  it('takes bootstrapServers from the trigger, then custom.sluice, then KAFKA_BROKERS, else the local broker', () => {
    const custom = { custom: { sluice: { bootstrapServers: 'c1:9092, c2:9092' } } };
    const env = { KAFKA_BROKERS: 'e1:9092,e2:9092' };
    expect(only(service(orders({ topic: 'o', bootstrapServers: ['t:9092'] }), custom), { ...options, env }).bootstrapServers).toEqual(['t:9092']);
    expect(only(service(orders({ topic: 'o', bootstrapServers: ' t1:1,t2:2 ' }), custom)).bootstrapServers).toEqual(['t1:1', 't2:2']);
    expect(only(service(orders({ topic: 'o' }), custom), { ...options, env }).bootstrapServers).toEqual(['c1:9092', 'c2:9092']);
    expect(only(service(orders({ topic: 'o' })), { ...options, env }).bootstrapServers).toEqual(['e1:9092', 'e2:9092']);
    expect(only(service(orders({ topic: 'o' })), { ...options, env: { KAFKA_BROKERS: ' ' } }).bootstrapServers).toBeUndefined();
  });

  it('takes consumer-group tuning from the trigger, then custom.sluice, then the default', () => {
    const custom = { custom: { sluice: { maxPollIntervalMs: '${env:POLL_INTERVAL}', sessionTimeoutMs: 45_000, concurrency: 8 } } };
    const doc = service({
      ...orders({ topic: 'o', sessionTimeoutMs: 20_000, heartbeatIntervalMs: 5_000 }),
      payments: { handler: 'functions/payments.handler', events: [{ sluice: { topic: 'p' } }] },
    }, custom);
    const [own, shared] = resolveService(doc, { ...options, env: { POLL_INTERVAL: '600000' } }).triggers;
    expect(own).toMatchObject({ maxPollIntervalMs: 600_000, sessionTimeoutMs: 20_000, heartbeatIntervalMs: 5_000, concurrency: 8 });
    expect(shared).toMatchObject({ maxPollIntervalMs: 600_000, sessionTimeoutMs: 45_000, heartbeatIntervalMs: 3_000, concurrency: 8 });
  });

  it('checks the tuning rules after defaults, in the same ConfigError, once per rule and place', () => {
    const doc = service({
      ...orders({ topic: 'o', heartbeatIntervalMs: 5_000, sessionTimeoutMs: 10_000 }, { timeout: 300 }),
      payments: { handler: 'functions/payments.handler', events: [{ sluice: { topic: 'p' } }, { sluice: { topic: 'q' } }] },
    }, { provider: { name: 'aws', timeout: 60 }, custom: { sluice: { maxPollIntervalMs: 60_000, sessionTimeoutMs: 90_000 } } });
    expect(errorOf(() => resolveService(doc, options)).split('\n')).toEqual([
      'serverless.yml: 4 problems with the Sluice configuration:',
      '  - functions.orders.events[0].sluice: heartbeatIntervalMs 5000 is not below a third of sessionTimeoutMs 10000. ' +
        'Lower heartbeatIntervalMs to at most 3333, or raise sessionTimeoutMs to at least 15001.',
      '  - functions.orders: timeout 300 s does not fit in maxPollIntervalMs 60000 (custom.sluice) with its safety margin of 6000 ms and a start window of 3000 ms after each fetch: ' +
        "an invocation could outlast the member's poll interval and get it removed from the group. " +
        "Raise maxPollIntervalMs to at least 352941, or lower the function's timeout to at most 51 s.",
      '  - functions.payments: timeout 60 s does not fit in maxPollIntervalMs 60000 (custom.sluice) with its safety margin of 6000 ms and a start window of 3000 ms after each fetch: ' +
        "an invocation could outlast the member's poll interval and get it removed from the group. " +
        "Raise maxPollIntervalMs to at least 70588, or lower the function's timeout to at most 51 s.",
      '  - custom.sluice: sessionTimeoutMs 90000 is above maxPollIntervalMs 60000: Kafka needs the rebalance timeout (maxPollIntervalMs) ' +
        'to be at least the session timeout. Lower sessionTimeoutMs to at most 60000, or raise maxPollIntervalMs to at least 90000.',
    ]);
  });

  it('takes ordering: unordered with parallelizationFactor above 1, and refuses it without', () => {
    expect(only(service(orders({ topic: 'o', parallelizationFactor: 4, ordering: 'unordered' }))).ordering).toBe('unordered');
    expect(only(service(orders({ topic: 'o', parallelizationFactor: 4, ordering: 'key' }))).ordering).toBeUndefined();
    expect(errorOf(() => resolveService(service(orders({ topic: 'o', ordering: 'unordered' })), options)).split('\n')).toEqual([
      'serverless.yml: 1 problem with the Sluice configuration:',
      '  - functions.orders.events[0].sluice.ordering: unordered needs parallelizationFactor above 1 (got 1): one invocation of a partition at a time keeps its whole order. ' +
        'Set parallelizationFactor: 2–10, or remove ordering.',
    ]);
  });

  it('checks no tuning rule while custom.sluice itself is invalid', () => {
    const doc = service(orders({ topic: 'o' }, { timeout: 300 }), { custom: { sluice: { maxPollIntervalMs: 600_000, concurrency: 0 } } });
    expect(errorOf(() => resolveService(doc, options)).split('\n').slice(1)).toEqual([
      expect.stringMatching(/^ {2}- custom\.sluice\.concurrency: must be at least 1 \(got 0\)\. concurrency is /),
    ]);
  });

  it('resolves the failure policy and filter patterns, maps and JSON strings alike', () => {
    const amount = { value: { amount: [{ numeric: ['>', 10] }] } };
    const trigger = only(service(orders({
      topic: 'orders',
      maximumRetryAttempts: '${env:RETRIES}',
      maximumRecordAgeInSeconds: 600,
      bisectBatchOnFunctionError: true,
      functionResponseType: 'ReportBatchItemFailures',
      destinationConfig: { onFailure: { destination: 'kafka://orders-failed' } },
      filterPatterns: [amount, '{"value":{"region":[{"prefix":"eu-"}]}}'],
    })), { ...options, env: { RETRIES: '2' } });
    expect(trigger.failure).toEqual({
      maximumRetryAttempts: 2,
      maximumRecordAgeMs: 600_000,
      bisectBatchOnFunctionError: true,
      reportBatchItemFailures: true,
      onFailure: { kind: 'kafka', uri: 'kafka://orders-failed', topic: 'orders-failed' },
    });
    expect(trigger.filterPatterns).toEqual([amount, { value: { region: [{ prefix: 'eu-' }] } }]);
  });

  it('checks the failure-policy rules and filter patterns after defaults, in the same ConfigError', () => {
    const doc = service({
      ...orders({ topic: 'orders', maximumRetryAttempts: 3, filterPatterns: [{ value: { a: [1] } }, '{ value: [1] }'] }),
      payments: { handler: 'functions/payments.handler', events: [{ sluice: { topic: 'payments', destinationConfig: { onFailure: { destination: 'kafka://payments' } } } }] },
    });
    const lines = errorOf(() => resolveService(doc, options)).split('\n');
    expect(lines[0]).toBe('serverless.yml: 3 problems with the Sluice configuration:');
    expect(lines.slice(1)).toEqual([
      '  - functions.orders.events[0].sluice: maximumRetryAttempts 3 is set without destinationConfig.onFailure.destination: ' +
        'Sluice never drops a record, so a record that exhausts its retries needs somewhere to go. Add ' +
        'destinationConfig.onFailure.destination (e.g. kafka://orders-failed), or remove maximumRetryAttempts to retry until the handler succeeds.',
      expect.stringMatching(/^ {2}- functions\.orders\.events\[0\]\.sluice\.filterPatterns\[1\]: must be valid JSON: .+ \(got "\{ value: \[1\] \}"\)\. filterPatterns lists/),
      "  - functions.payments.events[0].sluice.destinationConfig.onFailure.destination: must not be the trigger's own topic \"payments\": " +
        'failed records would be consumed again and fail in a loop (got "kafka://payments"). Pick another topic, e.g. kafka://payments-failed.',
    ]);
  });

  it('refuses a destination that is not a supported URI or ARN, listing the accepted forms', () => {
    const doc = service(orders({ topic: 'orders', maximumRetryAttempts: 3, destinationConfig: { onFailure: { destination: 'sqs://orders-failed' } } }));
    expect(errorOf(() => resolveService(doc, options)).split('\n')).toEqual([
      'serverless.yml: 1 problem with the Sluice configuration:',
      '  - functions.orders.events[0].sluice.destinationConfig.onFailure.destination: must be kafka://<topic> or an SQS queue, ' +
        'SNS topic or S3 bucket ARN (got "sqs://orders-failed"). destination is where records go that fail every retry or expire: ' +
        'kafka://<topic> (e.g. kafka://orders-failed), an SQS queue ARN (e.g. arn:aws:sqs:us-east-1:123456789012:orders-failed), ' +
        'an SNS topic ARN (e.g. arn:aws:sns:us-east-1:123456789012:orders-failed) or an S3 bucket ARN (e.g. arn:aws:s3:::orders-failed).',
    ]);
  });

  it('ignores functions without sluice events and other event types; returns disabled triggers', () => {
    const doc = service({
      api: { handler: 'functions/api.handler', events: [{ http: { path: '/', method: 'get' } }] },
      native: { handler: 'functions/native.handler', events: [{ kafka: { topic: 't', bootstrapServers: ['x:1'] } }] },
      plain: { handler: 'functions/plain.handler' },
      mixed: { handler: 'functions/mixed.handler', events: [{ http: 'GET /' }, { sluice: { topic: 'a' } }, { sluice: { topic: 'b', enabled: false } }] },
    }, { resources: { Resources: { Q: { Properties: { Name: '${ssm:/only/at/deploy}' } } } } });
    const spec = resolveService(doc, options);
    expect(spec.triggers.map((t) => [t.path, t.topic, t.enabled])).toEqual([
      ['functions.mixed.events[1].sluice', 'a', true],
      ['functions.mixed.events[2].sluice', 'b', false],
    ]);
  });

  it('accepts service as { name } and resolves variables in what it reads', () => {
    const doc = {
      service: { name: 'shop' },
      provider: { stage: "${opt:stage, 'dev'}", timeout: '${env:TIMEOUT, 10}' },
      custom: { topic: 'orders-${sls:stage}' },
      functions: orders({ topic: '${self:custom.topic}', batchSize: '${env:BATCH}' }),
    };
    const spec = resolveService(doc, { ...options, stage: 'prod', env: { BATCH: '250' } });
    expect(spec.triggers[0]).toMatchObject({ topic: 'orders-prod', batchSize: 250, timeoutMs: 10_000, consumerGroupId: 'sluice-shop-orders' });
  });

  it('reports every problem of the file in one ConfigError, one line each', () => {
    const doc = service({
      ...orders({ topic: 'orders', batchsize: 10, batchSize: 10001 }),
      payments: { events: [{ sluice: { topic: '${env:PAYMENTS_TOPIC}' } }] },
    }, { custom: { sluice: { brokers: 'x:1' } } });
    const lines = errorOf(() => resolveService(doc, options)).split('\n');
    expect(lines[0]).toBe('serverless.yml: 5 problems with the Sluice configuration:');
    expect(lines.slice(1)).toEqual([
      '  - custom.sluice: unknown property "brokers". Allowed properties: bootstrapServers, emulateNativeEvents, maxPollIntervalMs, sessionTimeoutMs, heartbeatIntervalMs, concurrency, maxConsumerRestarts, engine, groupProtocol, http, metrics, deploy, build.',
      '  - functions.orders.events[0].sluice: unknown property "batchsize". Did you mean "batchSize"?',
      '  - functions.orders.events[0].sluice.batchSize: must be at most 10000 (got 10001). batchSize is the number of records per invocation, 1–10000.',
      '  - functions.payments: missing required property "handler" (the handler to invoke, e.g. functions/payments.handler).',
      "  - functions.payments.events[0].sluice.topic: cannot resolve ${env:PAYMENTS_TOPIC}: environment variable PAYMENTS_TOPIC is not set. Set PAYMENTS_TOPIC, or give a default: ${env:PAYMENTS_TOPIC, 'value'}.",
    ]);
  });

  it('reads the health server port from custom.sluice.http and refuses one out of range', () => {
    const withPort = (port: unknown) => service(orders({ topic: 'o' }), { custom: { sluice: { http: { port } } } });
    expect(resolveService(withPort(8080), options).http).toEqual({ port: 8080 });
    expect(resolveService(service(orders({ topic: 'o' })), options).http).toBeUndefined();
    expect(errorOf(() => resolveService(withPort(70_000), options))).toContain('custom.sluice.http.port: must be at most 65535 (got 70000).');
  });

  it('refuses a bad KAFKA_BROKERS only when a trigger needs it', () => {
    const env = { KAFKA_BROKERS: 'kafka' };
    expect(errorOf(() => resolveService(service(orders({ topic: 'o' })), { ...options, env }))).toContain(
      'KAFKA_BROKERS: each broker must be host:port with a port 1–65535 (got "kafka").',
    );
    expect(only(service(orders({ topic: 'o', bootstrapServers: 'a:1' })), { ...options, env }).bootstrapServers).toEqual(['a:1']);
  });

  it('refuses bad function settings, unsupported variables and a missing service name', () => {
    expect(errorOf(() => resolveService(service(orders({ topic: 'o' }, { timeout: 'soon' })), options))).toContain(
      'functions.orders.timeout: must be a positive number (got "soon").',
    );
    expect(errorOf(() => resolveService(service(orders({ topic: '${ssm:/topic}' })), options))).toContain(
      'functions.orders.events[0].sluice.topic: cannot resolve ${ssm:/topic}: the "ssm:" variable source needs AWS or files, and npm start resolves only',
    );
    expect(errorOf(() => resolveService({ functions: orders({ topic: 'o' }) }, options))).toContain('service: must be the service\'s name');
    expect(errorOf(() => resolveService('nope', options))).toContain('serverless.yml: must be a YAML map');
  });
});

describe('loadService', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads serverless.yml from rootDir, CloudFormation tags included', async () => {
    await writeFile(path.join(dir, 'serverless.yml'), [
      'service: shop',
      'provider:',
      '  name: aws',
      '  environment:',
      '    QUEUE: !Ref Queue',
      'functions:',
      '  orders:',
      '    handler: functions/orders.handler',
      '    timeout: 30',
      '    events:',
      '      - sluice:',
      '          topic: orders',
      '          batchSize: 500',
      '          consumerGroupId: orders-processor',
    ].join('\n'));
    const spec = await loadService({ rootDir: dir, env: {} });
    expect(spec.rootDir).toBe(dir);
    expect(spec.triggers[0]).toMatchObject({ topic: 'orders', batchSize: 500, timeoutMs: 30_000, consumerGroupId: 'orders-processor' });
  });

  it('reads filter patterns and a destination as the Serverless Framework documents them', async () => {
    await writeFile(path.join(dir, 'filters.yml'), [
      'service: shop',
      'functions:',
      '  orders:',
      '    handler: functions/orders.handler',
      '    events:',
      '      - sluice:',
      '          topic: orders',
      '          maximumRetryAttempts: 2',
      '          destinationConfig:',
      '            onFailure:',
      '              destination: arn:aws:sqs:eu-west-1:123456789012:orders-failed.fifo',
      '          filterPatterns:',
      '            - value:',
      '                amount:',
      "                  - numeric: ['>', 10]",
      '            - \'{"value": {"status": ["ERROR"]}}\'',
    ].join('\n'));
    const [trigger] = (await loadService({ rootDir: dir, file: 'filters.yml', env: {} })).triggers;
    expect(trigger?.filterPatterns).toEqual([{ value: { amount: [{ numeric: ['>', 10] }] } }, { value: { status: ['ERROR'] } }]);
    expect(trigger?.failure.onFailure).toEqual({
      kind: 'sqs', uri: 'arn:aws:sqs:eu-west-1:123456789012:orders-failed.fifo', region: 'eu-west-1', accountId: '123456789012', name: 'orders-failed.fifo',
    });
  });

  it('names file, line and column of a YAML syntax error', async () => {
    await writeFile(path.join(dir, 'broken.yml'), 'service: shop\nfunctions:\n  orders:\n    handler: [a\n  other: 1\n');
    await expect(loadService({ rootDir: dir, file: 'broken.yml', env: {} })).rejects.toThrow(
      new RegExp(`^${path.join(dir, 'broken.yml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: invalid YAML at line \\d+, column \\d+: `),
    );
  });

  it('says where it looked for a missing serverless.yml', async () => {
    const missing = path.join(dir, 'nowhere');
    await expect(loadService({ rootDir: missing })).rejects.toThrow(`No serverless.yml found: looked for ${path.join(missing, 'serverless.yml')}.`);
  });
});
