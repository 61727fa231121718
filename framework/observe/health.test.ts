import { describe, expect, it } from 'vitest';
import { Instrumentation } from './events.ts';
import { HealthTracker } from './health.ts';

const trigger = { functionName: 'orders', topic: 'orders', consumerGroupId: 'g', path: 'functions.orders.events[0].sluice' };
const ids = { functionName: 'orders', groupId: 'g', topic: 'orders' };
const join = { groupId: 'g', memberId: 'm2', isLeader: true, assignment: { orders: [0, 1] }, durationMs: 5 };

describe('HealthTracker', () => {
  it('is ready again after a supervised restart whose new member joined before the restart was reported', () => {
    const events = new Instrumentation();
    const health = new HealthTracker([trigger], events);
    events.emit('group.join', { ...join, memberId: 'm1' });
    events.emit('trigger.consumer_stopped', { ...ids, error: 'The coordinator is loading', consecutive: 1, restartInMs: 1000 });
    expect(health.notReady().map((t) => t.state)).toEqual(['restarting']);
    events.emit('group.join', join);
    events.emit('trigger.consumer_restarted', { ...ids, restarts: 1 });
    expect(health.notReady()).toEqual([]);
    expect(health.triggers()[0]).toMatchObject({ state: 'joined', restarts: 1, partitions: [0, 1] });
  });

  it('a restart reported before the new member joined is starting until it joins', () => {
    const events = new Instrumentation();
    const health = new HealthTracker([trigger], events);
    events.emit('trigger.consumer_stopped', { ...ids, error: 'boom', consecutive: 1, restartInMs: 1000 });
    events.emit('trigger.consumer_restarted', { ...ids, restarts: 1 });
    expect(health.triggers()[0]!.state).toBe('starting');
    expect(health.failing()).toEqual([]);
    events.emit('group.join', join);
    expect(health.notReady()).toEqual([]);
  });
});
