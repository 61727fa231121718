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
});
