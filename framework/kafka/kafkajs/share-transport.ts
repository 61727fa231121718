/**
 * The share client's transport on kafkajs (docs/design/queue-mode.md): its connections (framing,
 * SASL, TLS, MSK IAM as the kafkajs engine configures them, through createKafkaClient) carry the
 * share RPCs that share/messages.ts encodes, and its record decoder, the one Sluice's patch bounds,
 * reads what a ShareFetch returns. A ShareFetch may wait at the broker, which answers a connection's
 * requests in order: it goes on the connection kafkajs keeps for Fetch, which a share member never
 * sends, so heartbeats and acknowledgements are not queued behind it.
 */
import { createRequire } from 'node:module';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { KafkaRecord } from '../../event/record.ts';
import type { ShareTransport } from '../share/transport.ts';
import { privateCluster, type PrivateBroker, type PrivateCluster } from './private-cluster.ts';
import { toKafkaRecord } from './records.ts';

const require = createRequire(import.meta.url);
type DecoderClass = new (buffer: Buffer) => unknown;
const Decoder = require('kafkajs/src/protocol/decoder') as DecoderClass;
const decodeMessages = require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages') as (decoder: unknown) => Promise<KafkaMessage[]>;

/** Partitions whose last decoded batches are kept for the next fetch. */
const DECODED_KEPT = 8;

/** What kafkajs's record decoder keeps on each message beside its typings: its batch's offsets, and whether it is a control record. */
type DecodedMessage = KafkaMessage & { isControlRecord?: boolean; batchContext?: { firstOffset: string; lastOffsetDelta: number } };

export function kafkajsShareTransport(kafka: Kafka): ShareTransport {
  /** Per partition, the last record batches decoded (a copy of their bytes) and what they gave. */
  const lastDecoded = new Map<number, { raw: Buffer; result: { records: KafkaRecord[]; through: number } }>();
  const maybe = privateCluster(kafka);
  if (!maybe) throw new Error('queue mode rides on kafkajs 2.2.4\'s connections, and this kafkajs keeps them elsewhere: reinstall the version package.json pins');
  const cluster: PrivateCluster = maybe;
  let connected: Promise<void> | undefined;
  const ready = () =>
    (connected ??= (async () => {
      await cluster.connect();
      await cluster.refreshMetadata();
    })().catch((e: unknown) => {
      connected = undefined;
      throw e;
    }));
  const broker = async (nodeId: number): Promise<PrivateBroker> => {
    await ready();
    try {
      return await cluster.findBroker({ nodeId });
    } catch {
      // A broker the metadata did not know yet (a leader that moved to a new node).
      await cluster.refreshMetadata();
      return cluster.findBroker({ nodeId });
    }
  };
  const any = async (): Promise<PrivateBroker> => {
    await ready();
    return broker(cluster.getNodeIds()[0]!);
  };
  return {
    async send(to, request) {
      const b = to === 'any' ? await any() : 'coordinatorOf' in to ? await (await ready(), cluster.findGroupCoordinator({ groupId: to.coordinatorOf })) : await broker(to.nodeId);
      if (to !== 'any' && 'fetch' in to && to.fetch) return (await b.connectionPool.getConnection(1)).send(request);
      return b.connectionPool.send(request);
    },
    async versions(apiKey) {
      const v = (await any()).versions?.[apiKey];
      return v ? { min: v.minVersion, max: v.maxVersion } : undefined;
    },
    async refresh() {
      await ready();
      await cluster.refreshMetadata();
    },
    async decode(topic, partition, records): Promise<{ records: KafkaRecord[]; through: number }> {
      // A share fetch acquires records, not batches: the broker sends the same batches again
      // while their records are handed out a few at a time. Decoded once, they are reused.
      const cached = lastDecoded.get(partition);
      if (cached && cached.raw.equals(records)) return cached.result;
      const result = await decodeOnce(topic, partition, records);
      lastDecoded.delete(partition);
      lastDecoded.set(partition, { raw: Buffer.from(records), result });
      // The partitions fetched last: the memory stays that of a few fetches.
      if (lastDecoded.size > DECODED_KEPT) lastDecoded.delete(lastDecoded.keys().next().value!);
      return result;
    },
    async close() {
      lastDecoded.clear();
      connected = undefined;
      await cluster.disconnect();
    },
  };
}

/** A ShareFetch partition's record batches through kafkajs's record decoder (Sluice's bounds applied). */
async function decodeOnce(topic: string, partition: number, records: Buffer): Promise<{ records: KafkaRecord[]; through: number }> {
  // kafkajs's decoder reads a Fetch's records: an INT32 length, then the batches.
  const framed = Buffer.allocUnsafe(records.length + 4);
  framed.writeInt32BE(records.length, 0);
  records.copy(framed, 4);
  const messages = (await decodeMessages(new Decoder(framed))) as DecodedMessage[];
  let through = -1;
  for (const m of messages) through = Math.max(through, m.batchContext ? Number(m.batchContext.firstOffset) + m.batchContext.lastOffsetDelta : Number(m.offset));
  // A control record (a transaction's marker) is no record of the log's: its offset is acknowledged as a gap.
  return { records: messages.filter((m) => !m.isControlRecord).map((m) => toKafkaRecord(topic, partition, m)), through };
}
