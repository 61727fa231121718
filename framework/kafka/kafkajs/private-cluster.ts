/**
 * kafkajs 2.2.4 (pinned) keeps its cluster (connections to every broker, metadata, coordinator
 * lookup) behind a private symbol, and offers no public way to find a group's coordinator or to
 * send LeaveGroup for a member other than a consumer's own. This reaches its cluster factory by
 * the symbol's name, for the places that need it (evict-member.ts; `sluice status` and the fault
 * tier's coordinator lookups). Undefined when kafkajs changed: callers then do without.
 */
import type { Kafka } from 'kafkajs';

/** What kafkajs's connection takes and answers (share/messages.ts builds them). */
export interface PrivateRequest<T> {
  request: { apiKey: number; apiVersion: number; apiName: string; encode(): Promise<unknown> };
  response: { decode(payload: Buffer): Promise<T>; parse(data: T): Promise<T> };
}

export interface PrivateConnection {
  send<T>(r: PrivateRequest<T>): Promise<T>;
}

export interface PrivateBroker {
  nodeId: number;
  leaveGroup(request: { groupId: string; memberId: string }): Promise<unknown>;
  /** Its connections: index 0 for most requests, 1 for Fetch (a request that may wait at the broker). */
  connectionPool: PrivateConnection & { getConnection(index: number): Promise<PrivateConnection> };
  /** The API versions the broker answered ApiVersions with, by API key. */
  versions?: Record<number, { minVersion: number; maxVersion: number }>;
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
  /** The broker `nodeId` of the metadata last read, connected. */
  findBroker(request: { nodeId: number }): Promise<PrivateBroker>;
  /** The brokers of the metadata last read. */
  getNodeIds(): number[];
}

const FACTORY = 'private:Kafka:createCluster';

export function privateCluster(kafka: Kafka): PrivateCluster | undefined {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === FACTORY);
  const factory = symbol && (kafka as unknown as Record<symbol, unknown>)[symbol];
  return typeof factory === 'function' ? (factory as (options: object) => PrivateCluster)({}) : undefined;
}
