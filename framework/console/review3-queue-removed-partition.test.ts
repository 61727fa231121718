/**
 * Review 3 (e6da7c9): a queue trigger's card lists "every partition of the group's backlog reading",
 * but the console only ever adds partitions to share.lag: a topic deleted and made again with fewer
 * partitions keeps showing the removed partition, with its last backlog, forever (and the trigger
 * "progressing" on it).
 */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { ConsoleState } from './console-state.ts';

const spec = {
  functionName: 'orders', topic: 'orders', consumerGroupId: 'g', path: 'functions.orders.events[0].sluice', timeoutMs: 10_000, maxPollIntervalMs: 120_000, consumptionMode: 'queue',
  batchSize: 100, parallelizationFactor: 1, engine: 'kafkajs', failure: { onFailure: { kind: 'kafka', uri: 'kafka://dlq', topic: 'dlq' } },
} as unknown as TriggerSpec;

describe('Review 3 (e6da7c9): a queue trigger whose topic now has fewer partitions', () => {
  it('no longer shows the removed partition and its old backlog', () => {
    const events = new Instrumentation();
    const state = new ConsoleState({ service: 's', stage: 'dev', mode: 'read-write', historySize: 200, unlisted: () => ({}), eventsPerSecond: 10, listedPerSecond: 50, triggers: [spec], events, health: new HealthTracker([spec], events), progress: new ProgressTracker([spec], events) });
    const q = { functionName: 'orders', topic: 'orders', groupId: 'g' };
    events.emit('queue.lag', { ...q, partitions: [{ partition: 0, lag: 0 }, { partition: 1, lag: 0 }, { partition: 2, lag: 500 }] });
    // Deleted and made again with 2 partitions: every later reading has partitions 0 and 1, all read.
    for (let i = 0; i < 3; i++) events.emit('queue.lag', { ...q, partitions: [{ partition: 0, lag: 0 }, { partition: 1, lag: 0 }] });
    const t = state.overview().triggers[0]!;
    state.close();
    expect(t.partitions.map((p) => [p.partition, p.lag, p.state])).toEqual([[0, 0, 'caught-up'], [1, 0, 'caught-up']]);
  });
});
