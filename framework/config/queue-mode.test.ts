import { describe, expect, it } from 'vitest';
import { resolveService, type ResolveOptions } from './load.ts';
import { groupDeliveryLimit, queueRetries } from './queue-mode.ts';
import { configErrorMessage } from './testing.ts';

const options: ResolveOptions = { rootDir: '/srv/shop', env: {} };
const doc = (sluice: Record<string, unknown>) => ({
  service: 'shop', provider: { name: 'aws', runtime: 'nodejs20.x' }, plugins: ['serverless-sluice'],
  functions: { orders: { handler: 'functions/orders.handler', events: [{ sluice }] } },
});
const destination = { destinationConfig: { onFailure: { destination: 'kafka://orders-failed' } } };

describe('consumptionMode: queue', () => {
  it('takes queue mode with a destination, and leaves stream mode unmarked', () => {
    expect(resolveService(doc({ topic: 'orders', consumptionMode: 'queue', ...destination }), options).triggers[0]!.consumptionMode).toBe('queue');
    expect(resolveService(doc({ topic: 'orders', consumptionMode: 'stream' }), options).triggers[0]!.consumptionMode).toBeUndefined();
  });

  it('refuses what a share group has no use for, each with what to do instead', () => {
    const message = configErrorMessage(() =>
      resolveService(doc({ topic: 'orders', consumptionMode: 'queue', parallelizationFactor: 4, ordering: 'unordered', maximumBatchingWindow: 1, bisectBatchOnFunctionError: true, startingPosition: 'AT_TIMESTAMP', startingPositionTimestamp: 1, maximumRetryAttempts: 9 }), options),
    );
    expect(message).toContain('parallelizationFactor is for stream mode; in queue mode every poller takes records of every partition: run more pollers to go past the partition count. Remove it.');
    expect(message).toContain('ordering is for stream mode: a share group keeps no order. Remove it.');
    expect(message).toContain('maximumBatchingWindow is for stream mode');
    expect(message).toContain('bisectBatchOnFunctionError is for stream mode');
    expect(message).toContain('startingPosition: AT_TIMESTAMP is for stream mode');
    expect(message).toContain('destinationConfig.onFailure is required in queue mode: the broker gives a record up after a number of deliveries');
    expect(message).toContain('maximumRetryAttempts is 9; in queue mode it is 0–8');
    expect(message).not.toContain('unordered needs parallelizationFactor above 1');
  });

  it('retries 4 times when maximumRetryAttempts is unset (-1), and sets the group\'s delivery limit one past the last delivery', () => {
    expect(queueRetries(-1)).toBe(4);
    expect(queueRetries(2)).toBe(2);
    expect(groupDeliveryLimit(-1)).toBe(6);
    expect(groupDeliveryLimit(8)).toBe(10);
  });
});
