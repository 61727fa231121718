/**
 * Review 3 (e6da7c9) found a function with a stream trigger and a queue trigger on the same topic
 * shown as one card in the console, the queue trigger's backlog dropped: the poller's events,
 * /metrics, /healthz and the console key a function's triggers by topic. Such a service is now
 * refused with what to do instead (a second function with the same handler).
 */
import { describe, expect, it } from 'vitest';
import { resolveService } from './load.ts';

const service = (second: Record<string, unknown>) => ({
  service: 'shop', provider: { name: 'aws' }, custom: { sluice: { bootstrapServers: 'b1:9092' } },
  functions: {
    orders: {
      handler: 'functions/orders.handler',
      events: [{ sluice: { topic: 'orders', consumerGroupId: 'orders-stream' } }, { sluice: { topic: 'orders', consumerGroupId: 'orders-queue', consumptionMode: 'queue', destinationConfig: { onFailure: { destination: 'kafka://orders-failed' } }, ...second } }],
    },
  },
});

describe('Review 3: a function reading one topic through two triggers', () => {
  it('is refused, naming both and the way out', () => {
    expect(() => resolveService(service({}), { rootDir: '/x', env: {} })).toThrow(
      'functions.orders.events[0].sluice and functions.orders.events[1].sluice: function "orders" reads topic "orders" twice; Sluice tells a function\'s triggers apart by topic (its events, /metrics, the console). ' +
        'Keep one, or give the other its own function (the same handler under a second name), e.g. while moving a topic to queue mode.',
    );
  });

  it('is accepted while one of them is disabled, or when they read different topics', () => {
    expect(resolveService(service({ enabled: false }), { rootDir: '/x', env: {} }).triggers).toHaveLength(2);
    expect(resolveService(service({ topic: 'orders-v2' }), { rootDir: '/x', env: {} }).triggers).toHaveLength(2);
  });
});
