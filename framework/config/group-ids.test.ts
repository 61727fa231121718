import { describe, expect, it } from 'vitest';
import { resolveService, type ResolveOptions } from './load.ts';
import { configErrorMessage } from './testing.ts';
import { defaultGroupId, duplicateGroupIds } from './group-ids.ts';

const options: ResolveOptions = { rootDir: '/srv/shop', env: {} };
const doc = (functions: Record<string, unknown>) => ({ service: 'shop', provider: { name: 'aws' }, functions });
const groups = (functions: Record<string, unknown>) => resolveService(doc(functions), options).triggers.map((t) => t.consumerGroupId);

describe('consumer group ids', () => {
  it('keeps sluice-<service>-<function> for a function with one trigger, so existing groups keep their offsets', () => {
    expect(groups({ orders: { handler: 'h.handler', events: [{ sluice: { topic: 'orders' } }] } })).toEqual(['sluice-shop-orders']);
  });

  it('gives each trigger of a function with several its own group, disabled ones counted so enabling one renames nothing', () => {
    const functions = {
      orders: { handler: 'h.handler', events: [{ sluice: { topic: 'orders' } }, { http: 'GET /' }, { sluice: { topic: 'returns', enabled: false } }] },
      audit: { handler: 'h.handler', events: [{ sluice: { topic: 'orders', consumerGroupId: 'audit' } }, { sluice: { topic: 'returns' } }] },
    };
    expect(groups(functions)).toEqual(['sluice-shop-orders-orders', 'sluice-shop-orders-returns', 'audit', 'sluice-shop-audit-returns']);
  });

  it('refuses two enabled triggers in one group, naming both paths and the fix', () => {
    const message = configErrorMessage(() =>
      groups({
        orders: { handler: 'h.handler', events: [{ sluice: { topic: 'orders', consumerGroupId: 'shared' } }] },
        audit: { handler: 'h.handler', events: [{ sluice: { topic: 'audit', consumerGroupId: 'shared' } }] },
      }),
    );
    expect(message).toContain('functions.orders.events[0].sluice and functions.audit.events[0].sluice: all use consumer group "shared"');
    expect(message).toContain('Give each a different consumerGroupId.');
  });

  it('refuses the same default twice (one function, one topic, two clusters) but not a disabled twin', () => {
    const twice = (enabled: boolean) => ({
      orders: { handler: 'h.handler', events: [{ sluice: { topic: 'orders', bootstrapServers: 'a:9092' } }, { sluice: { topic: 'orders', bootstrapServers: 'b:9092', enabled } }] },
    });
    expect(configErrorMessage(() => groups(twice(true)))).toContain('all use consumer group "sluice-shop-orders-orders"');
    expect(groups(twice(false))).toEqual(['sluice-shop-orders-orders', 'sluice-shop-orders-orders']);
  });

  it('refuses a default AWS would not accept, saying to set consumerGroupId', () => {
    const topic = 't'.repeat(190);
    const message = configErrorMessage(() => groups({ orders: { handler: 'h.handler', events: [{ sluice: { topic: 'a' } }, { sluice: { topic } }] } }));
    expect(message).toContain(`functions.orders.events[1].sluice: the default consumer group id "sluice-shop-orders-${topic}" is 209 characters (at most 200). Set consumerGroupId on this trigger.`);
  });

  it('pure helpers', () => {
    expect(defaultGroupId('s', 'f', 't', 1)).toBe('sluice-s-f');
    expect(defaultGroupId('s', 'f', 't', 2)).toBe('sluice-s-f-t');
    expect(duplicateGroupIds([{ consumerGroupId: 'g', enabled: true, path: 'a' }, { consumerGroupId: 'g', enabled: true, path: 'b' }, { consumerGroupId: 'g', enabled: true, path: 'c' }])).toHaveLength(1);
  });
});
