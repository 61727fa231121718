/**
 * kafkajs 2.2.4 (pinned) keeps its cluster (connections to every broker, metadata, coordinator
 * lookup) behind a private symbol, and offers no public way to find a group's coordinator or to
 * send LeaveGroup for a member other than a consumer's own. This reaches its cluster factory by
 * the symbol's name, for the places that need it (evict-member.ts; `sluice status` and the fault
 * tier's coordinator lookups). Undefined when kafkajs changed: callers then do without.
 */
import type { Kafka } from 'kafkajs';

export interface PrivateBroker {
  nodeId: number;
  leaveGroup(request: { groupId: string; memberId: string }): Promise<unknown>;
}

export interface PrivateCluster {
  connect(): Promise<void>;
  /** Learns every broker from the seed (the pool is empty until then). */
  refreshMetadata(): Promise<void>;
  disconnect(): Promise<void>;
  /** FindCoordinator, then the broker it names (kafkajs retries while the coordinator moves). */
  findGroupCoordinator(request: { groupId: string }): Promise<PrivateBroker>;
  /** FindCoordinator's answer itself; coordinatorType 0 is GROUP (1 would be TRANSACTION). */
  findGroupCoordinatorMetadata(request: { groupId: string; coordinatorType: 0 }): Promise<{ coordinator: { nodeId: number; host: string; port: number } }>;
}

const FACTORY = 'private:Kafka:createCluster';

export function privateCluster(kafka: Kafka): PrivateCluster | undefined {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === FACTORY);
  const factory = symbol && (kafka as unknown as Record<symbol, unknown>)[symbol];
  return typeof factory === 'function' ? (factory as (options: object) => PrivateCluster)({}) : undefined;
}
