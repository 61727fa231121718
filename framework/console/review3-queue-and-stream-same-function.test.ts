/**
 * Review 3 (e6da7c9): the console finds a trigger's state by function and topic. A function with a
 * stream trigger and a queue trigger on the same topic (two groups, which the config accepts) has one
 * state overwrite the other (byFunction.get(fn).set(topic, s)): the queue trigger has no card at all
 * in the overview, and its backlog readings (queue.lag) land on the stream trigger's state, which has
 * no share-group part, and are dropped. (The keying predates e6da7c9; the queue card it adds is what
 * a stream→queue migration, both triggers side by side, loses.)
 */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { ConsoleState } from './console-state.ts';

const base = {
  functionName: 'orders', topic: 'orders', timeoutMs: 10_000, maxPollIntervalMs: 120_000,
  batchSize: 100, parallelizationFactor: 1, engine: 'kafkajs', failure: { onFailure: { kind: 'kafka', uri: 'kafka://dlq', topic: 'dlq' } },
};
const queue = { ...base, consumerGroupId: 'orders-queue', path: 'functions.orders.events[0].sluice', consumptionMode: 'queue' } as unknown as TriggerSpec;
const stream = { ...base, consumerGroupId: 'orders-stream', path: 'functions.orders.events[1].sluice' } as unknown as TriggerSpec;

describe('Review 3 (e6da7c9): a function with a queue trigger and a stream trigger on the same topic', () => {
  it('shows the queue trigger\'s share-group backlog on its card', () => {
    const events = new Instrumentation();
    const triggers = [queue, stream];
    const health = new HealthTracker(triggers, events);
    const progress = new ProgressTracker(triggers, events);
    const state = new ConsoleState({ service: 's', stage: 'dev', mode: 'read-write', historySize: 200, triggers, events, health, progress });
    events.emit('queue.lag', { functionName: 'orders', topic: 'orders', groupId: 'orders-queue', partitions: [{ partition: 0, lag: 9 }, { partition: 1, lag: 4 }] });
    const cards = state.overview().triggers;
    state.close();
    expect(cards.map((t) => [t.group, t.consumptionMode])).toEqual([['orders-queue', 'queue'], ['orders-stream', 'stream']]);
    const card = cards.find((t) => t.group === 'orders-queue')!;
    expect(card.partitions.map((p) => [p.partition, p.lag])).toEqual([[0, 9], [1, 4]]);
  });
});
