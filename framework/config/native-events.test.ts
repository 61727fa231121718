import { describe, expect, it } from 'vitest';
import { resolveService } from './load.ts';

const doc = (emulate: boolean | undefined) => ({
  service: 'shop',
  provider: { name: 'aws', timeout: 10 },
  custom: emulate === undefined ? {} : { sluice: { emulateNativeEvents: emulate } },
  functions: {
    orders: {
      handler: 'functions/orders.handler',
      events: [
        { kafka: { accessConfigurations: { saslScram512Auth: 'arn:aws:secretsmanager:us-east-1:01234567890:secret:x' }, topic: 'orders', bootstrapServers: ['b1:9092'], batchSize: 50, consumerGroupId: 'orders-g', filterPatterns: [{ value: { a: [1] } }] } },
        { msk: { arn: 'arn:aws:kafka:us-east-1:111122223333:cluster/c/abc', topic: 'payments', startingPosition: 'LATEST' } },
        { http: { path: '/x', method: 'get' } },
      ],
    },
  },
});

describe('native kafka and msk events', () => {
  it('are left to AWS unless custom.sluice.emulateNativeEvents is true', () => {
    expect(resolveService(doc(undefined), { rootDir: '/x', env: {} }).triggers).toEqual([]);
    expect(resolveService(doc(false), { rootDir: '/x', env: {} }).triggers).toEqual([]);
  });

  it('become triggers with the shared properties; accessConfigurations is read past; msk carries its ARN', () => {
    const [kafka, msk] = resolveService(doc(true), { rootDir: '/x', env: {} }).triggers;
    expect(kafka).toMatchObject({ path: 'functions.orders.events[0].kafka', topic: 'orders', bootstrapServers: ['b1:9092'], batchSize: 50, consumerGroupId: 'orders-g', filterPatterns: [{ value: { a: [1] } }], timeoutMs: 10_000 });
    expect(kafka!.eventSourceArn).toBeUndefined();
    expect(msk).toMatchObject({ path: 'functions.orders.events[1].msk', topic: 'payments', startingPosition: 'LATEST', eventSourceArn: 'arn:aws:kafka:us-east-1:111122223333:cluster/c/abc', bootstrapServers: undefined });
  });

  it('report problems at the native event path', () => {
    const bad = doc(true);
    (bad.functions.orders.events[0] as { kafka: Record<string, unknown> }).kafka.batchSize = 0;
    expect(() => resolveService(bad, { rootDir: '/x', env: {} })).toThrow(/functions\.orders\.events\[0\]\.kafka\.batchSize: must be at least 1/);
  });

  describe('a kafka event with consumptionMode (queue mode, as AWS deploys it: plugin/deploy/native-queue.ts)', () => {
    const service = (kafka: Record<string, unknown>, msk?: Record<string, unknown>) => ({
      service: 'shop', provider: { name: 'aws' }, custom: { sluice: { emulateNativeEvents: true } },
      functions: { orders: { handler: 'functions/orders.handler', events: [{ kafka: { accessConfigurations: { saslScram512Auth: 'arn:aws:secretsmanager:us-east-1:1:secret:x' }, topic: 'orders', ...kafka } }, ...(msk ? [{ msk: { arn: 'arn:aws:kafka:us-east-1:1:cluster/c/abc', topic: 'clicks', ...msk } }] : [])] } },
    });
    const problems = (doc: ReturnType<typeof service>) => {
      try {
        resolveService(doc, { rootDir: '/x', env: {} });
        return [];
      } catch (e) {
        return (e as Error).message.split('\n').slice(1).map((l) => l.trim().replace(/^- /, ''));
      }
    };

    it('runs as a queue trigger, its onFailureDestination the on-failure destination; Queue as AWS spells it, or queue; a stream event\'s destination stays AWS\'s', () => {
      for (const mode of ['Queue', 'queue']) {
        const [t] = resolveService(service({ consumptionMode: mode, onFailureDestination: 'kafka://orders-failed' }), { rootDir: '/x', env: {} }).triggers;
        expect(t).toMatchObject({ consumptionMode: 'queue', emulates: 'kafka', failure: { onFailure: { kind: 'kafka', topic: 'orders-failed' } } });
      }
      const [stream] = resolveService(service({ consumptionMode: 'Stream', onFailureDestination: 'arn:aws:sqs:us-east-1:111122223333:orders-dlq' }), { rootDir: '/x', env: {} }).triggers;
      expect(stream!.consumptionMode).toBeUndefined();
      expect(stream!.failure.onFailure).toBeUndefined();
    });

    it('names the native properties in its problems: onFailureDestination is required, startingPosition refused; MSK has no queue mode', () => {
      expect(problems(service({ consumptionMode: 'Queue' }))).toEqual([
        'functions.orders.events[0].kafka.onFailureDestination is required in queue mode: the broker gives a record up after a number of deliveries, and Sluice sends it to the destination before then. Add onFailureDestination: kafka://<topic> (or an SQS queue, SNS topic or S3 bucket ARN).',
      ]);
      expect(problems(service({ consumptionMode: 'Queue', onFailureDestination: 'kafka://f', startingPosition: 'TRIM_HORIZON' }))).toEqual([
        "functions.orders.events[0].kafka.startingPosition: AWS's event source mapping takes no starting position in queue mode (it refuses StartingPosition). Remove it; locally the share group then starts at the earliest record.",
      ]);
      expect(problems(service({}, { consumptionMode: 'Queue' }))).toEqual([
        "functions.orders.events[1].msk.consumptionMode: AWS's queue mode reads self-managed Kafka only (a kafka event), not MSK. Remove it, or use a sluice event with consumptionMode: queue.",
      ]);
    });
  });
});
