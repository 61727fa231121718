/**
 * What /healthz and /readyz answer, from instrumentation events alone: each trigger's consumer
 * state. Healthy: every trigger has a running consumer (starting, joined or rebalancing);
 * ready: every trigger has joined its group and holds its assignment (possibly no partitions,
 * when the group has more members than the topic has partitions).
 */
import type { TriggerSpec } from '../config/types.ts';
import type { Instrumentation } from './events.ts';

export type TriggerState = 'starting' | 'joined' | 'rebalancing' | 'restarting' | 'failed';

export interface TriggerHealth {
  function: string;
  topic: string;
  group: string;
  path: string;
  state: TriggerState;
  /** ISO time of the last state change. */
  since: string;
  /** Partitions assigned at the last join. */
  partitions: number[];
  /** New members started after the consumer stopped. */
  restarts: number;
  lastError?: string;
}

const RUNNING: ReadonlySet<TriggerState> = new Set(['starting', 'joined', 'rebalancing']);

export class HealthTracker {
  private readonly byGroup = new Map<string, TriggerHealth>();
  private readonly off: Array<() => void>;

  constructor(triggers: ReadonlyArray<Pick<TriggerSpec, 'functionName' | 'topic' | 'consumerGroupId' | 'path'>>, events: Instrumentation, private readonly now = Date.now) {
    for (const t of triggers) {
      this.byGroup.set(t.consumerGroupId, { function: t.functionName, topic: t.topic, group: t.consumerGroupId, path: t.path, state: 'starting', since: this.time(), partitions: [], restarts: 0 });
    }
    const set = (group: string, state: TriggerState, change: Partial<TriggerHealth> = {}) => {
      const h = this.byGroup.get(group);
      if (h) Object.assign(h, { ...change, state, since: h.state === state ? h.since : this.time() });
    };
    this.off = [
      events.on('group.join', (e) => set(e.groupId, 'joined', { partitions: Object.values(e.assignment).flat().sort((a, b) => a - b) })),
      events.on('group.rebalancing', (e) => set(e.groupId, 'rebalancing')),
      events.on('group.rebalance_detected', (e) => set(e.groupId, 'rebalancing')),
      events.on('trigger.consumer_stopped', (e) => set(e.groupId, 'restarting', { lastError: e.error, partitions: [] })),
      // The new member may have joined before its restart is reported: a join it already made stands.
      events.on('trigger.consumer_restarted', (e) => {
        const h = this.byGroup.get(e.groupId);
        if (h) set(e.groupId, h.state === 'restarting' ? 'starting' : h.state, { restarts: e.restarts });
      }),
      events.on('trigger.failed', (e) => set(e.groupId, 'failed', { lastError: e.error, partitions: [] })),
    ];
  }

  triggers(): TriggerHealth[] {
    return [...this.byGroup.values()].map((h) => ({ ...h, partitions: [...h.partitions] }));
  }

  /** Triggers without a running consumer (restarting after a stop, or given up on). */
  failing(): TriggerHealth[] {
    return this.triggers().filter((h) => !RUNNING.has(h.state));
  }

  /** Triggers not yet joined with an assignment. */
  notReady(): TriggerHealth[] {
    return this.triggers().filter((h) => h.state !== 'joined');
  }

  close(): void {
    for (const f of this.off) f();
  }

  private time(): string {
    return new Date(this.now()).toISOString();
  }
}
