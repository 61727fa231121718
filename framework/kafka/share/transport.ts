/**
 * What the share client needs of a Kafka client (kafkajs/share-transport.ts gives it on kafkajs's
 * connections): requests sent to a broker, the broker's API versions, and record batches decoded
 * into Sluice's records with the bounds on hostile input applied. Another client that can frame
 * and authenticate requests could stand here instead.
 */
import type { KafkaRecord } from '../../event/record.ts';
import type { WireRequest } from './messages.ts';

/** Where a request goes: any broker, the group's coordinator, or a node (`fetch`: on its connection for requests that wait at the broker). */
export type Destination = 'any' | { coordinatorOf: string } | { nodeId: number; fetch?: boolean };

export interface ShareTransport {
  send<T>(to: Destination, request: WireRequest<T>): Promise<T>;
  /** The versions of `apiKey` a broker supports, undefined when it has none. */
  versions(apiKey: number): Promise<{ min: number; max: number } | undefined>;
  /** Reads the cluster's brokers again (a leader moved to a node not known yet). */
  refresh(): Promise<void>;
  /**
   * A ShareFetch partition's record batches, as records (control records left out), and `through`:
   * the last offset of the batches read (-1 for none). The decoder may stop before the end (its
   * budget for decompressed bytes, a batch cut by the fetch's size): offsets past `through` were not
   * read, which is not the same as having no record.
   */
  decode(topic: string, partition: number, records: Buffer): Promise<{ records: KafkaRecord[]; through: number }>;
  close(): Promise<void>;
}
