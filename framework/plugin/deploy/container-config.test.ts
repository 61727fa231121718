import { describe, expect, it } from 'vitest';
import { resolveService } from '../../config/load.ts';
import { containerConfig, MAX_CONFIG_CHARS, parseContainerConfig, serializeContainerConfig } from './container-config.ts';
import { configErrorMessage } from '../../config/testing.ts';

const SHOP = resolveService(
  {
    service: 'shop',
    provider: { name: 'aws' },
    custom: { sluice: { bootstrapServers: 'k1:9092' } },
    functions: {
      orders: {
        handler: 'functions/orders.handler',
        environment: { TOKEN: 't0ken' },
        events: [{ sluice: { topic: 'orders', filterPatterns: [{ value: { kind: ['paid'] } }], maximumRetryAttempts: 1, destinationConfig: { onFailure: { destination: 'kafka://orders-failed' } } } }],
      },
      off: { handler: 'functions/off.handler', events: [{ sluice: { topic: 'off', enabled: false } }] },
    },
  },
  { rootDir: '/srv/shop', env: {} },
);

const errorOf = (text: string | undefined): string => configErrorMessage(() => parseContainerConfig(text));

describe('the container configuration (SLUICE_TRIGGERS)', () => {
  it('round-trips the enabled triggers with every setting but the environment, and names each function as deployed', () => {
    const config = containerConfig(SHOP, { orders: 'shop-dev-orders', off: 'shop-dev-off' });
    const read = parseContainerConfig(serializeContainerConfig(config));
    expect(read).toEqual(JSON.parse(JSON.stringify(config)));
    expect(read.functionNames).toEqual({ orders: 'shop-dev-orders' });
    const [orders, ...rest] = read.triggers;
    expect(rest).toEqual([]);
    const { environment, failure, ...same } = orders!;
    const { environment: _env, failure: sourceFailure, ...source } = SHOP.triggers[0]!;
    expect(environment).toEqual({});
    expect(same).toEqual(source);
    expect(failure).toEqual({ ...sourceFailure, maximumRecordAgeMs: undefined });
  });

  it('says what is wrong with a missing, unparsable or foreign value', () => {
    expect(errorOf(undefined)).toContain('SLUICE_TRIGGERS is not set');
    expect(errorOf('{')).toContain('SLUICE_TRIGGERS is not valid JSON');
    expect(errorOf('{"version":2,"invoker":"lambda","triggers":[]}')).toContain('is not a Sluice container configuration');
    expect(errorOf('{"version":1,"invoker":"lambda","functionNames":{},"triggers":[{"topic":"a"}]}')).toContain('trigger 0 lacks functionName');
    expect(errorOf('{"version":1,"invoker":"lambda","functionNames":{},"triggers":[{"functionName":"a","topic":"a","bootstrapServers":["k:1"]}]}')).toContain('trigger 0 lacks functionName');
    expect(errorOf('{"version":1,"invoker":"lambda","functionNames":{},"triggers":[]}')).toContain('lists no trigger');
    const one = '"functionNames":{"a":"x-a"},"triggers":[{"functionName":"a","topic":"a","bootstrapServers":["k:1"]}]';
    expect(errorOf(`{"version":1,"invoker":"lambda",${one},"metrics":{"namespace":"N"}}`)).toContain('SLUICE_TRIGGERS: metrics is not {"namespace": "…", "periodSeconds": <seconds>}');
    // Packaged before metrics settings existed: CloudWatch's defaults.
    expect(parseContainerConfig(`{"version":1,"invoker":"lambda",${one}}`).metrics).toEqual({ namespace: 'Sluice', periodSeconds: 60 });
  });

  it('refuses a fixed groupInstanceId: every task would join as that one static member', () => {
    const orders = { ...SHOP.triggers[0]!, engine: 'librdkafka' as const, groupProtocol: 'consumer' as const, groupInstanceId: 'orders-0' };
    expect(configErrorMessage(() => containerConfig({ ...SHOP, triggers: [orders] }, { orders: 'shop-dev-orders' }))).toContain(
      'functions.orders.events[0].sluice.groupInstanceId: every task of the poller\'s service would join as the same static member "orders-0"',
    );
  });

  it('refuses a configuration too large for a task definition', () => {
    const many = { ...SHOP, triggers: Array.from({ length: 200 }, () => SHOP.triggers[0]!) };
    expect(() => serializeContainerConfig(containerConfig(many, { orders: 'shop-dev-orders' }))).toThrow(`more than the ${MAX_CONFIG_CHARS}`);
  });
});
