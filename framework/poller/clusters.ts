/**
 * Pure: triggers grouped by the cluster they read from, as one client sees it (the same
 * brokers and the same access settings), so each cluster gets one admin connection.
 */
import type { TriggerSpec } from '../config/types.ts';

export interface Cluster {
  brokers: string[];
  triggers: TriggerSpec[];
}

export function groupByCluster(triggers: readonly TriggerSpec[], brokersOf: (t: TriggerSpec) => string[]): Cluster[] {
  const clusters = new Map<string, Cluster>();
  for (const t of triggers) {
    const brokers = brokersOf(t);
    const key = `${brokers.join(',')} ${JSON.stringify(t.access ?? {})}`;
    const cluster = clusters.get(key) ?? { brokers, triggers: [] };
    cluster.triggers.push(t);
    clusters.set(key, cluster);
  }
  return [...clusters.values()];
}
