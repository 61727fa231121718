import { describe, expect, it } from 'vitest';
import { fatalError, fatalIn } from './fatal.ts';

const SAID_UNRELEASED =
  '[thrd:main]: Fatal error: Broker: The instance ID is still used by another member in the consumer group: ConsumerGroupHeartbeat fatal error: Broker: The instance ID is still used by another member in the consumer group';

describe('librdkafka fatal errors', () => {
  it('reads the FATAL log line once, without its prefix and repeated tail', () => {
    expect(fatalIn({ severity: 0, fac: 'FATAL', message: SAID_UNRELEASED })).toBe('Broker: The instance ID is still used by another member in the consumer group');
    expect(fatalIn({ severity: 3, fac: 'FAIL', message: '[thrd:main]: Connection refused' })).toBeUndefined();
  });

  it('says what to do when the group refuses a static member\'s id', () => {
    const said = fatalIn({ severity: 0, fac: 'FATAL', message: SAID_UNRELEASED });
    const error = fatalError({ askedBy: 'functions.orders.events[0].sluice', groupId: 'shop-orders', groupInstanceId: 'orders-poller-0' }, said);
    expect(error.message).toMatch(/^functions\.orders\.events\[0\]\.sluice: group shop-orders refused groupInstanceId "orders-poller-0": another member still holds it/);
    expect(error.message).toMatch(/group\.consumer\.session\.timeout\.ms, 45 s by default\)\. Give each poller its own groupInstanceId/);
  });

  it('names the trigger and what librdkafka said otherwise, or that its log at debug says it', () => {
    expect(fatalError({ askedBy: 't', groupId: 'g' }, 'Broker: Some other fatal').message).toBe('t: group g: librdkafka stopped the consumer: Broker: Some other fatal');
    expect(fatalError({ askedBy: 't', groupId: 'g' }, undefined).message).toBe('t: group g: librdkafka stopped the consumer: a fatal error (its log at debug says which)');
  });
});
