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

export function kafkajsShareTransport(kafka: Kafka): ShareTransport {
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
    async decode(topic, partition, records): Promise<KafkaRecord[]> {
      // kafkajs's decoder reads a Fetch's records: an INT32 length, then the batches.
      const framed = Buffer.allocUnsafe(records.length + 4);
      framed.writeInt32BE(records.length, 0);
      records.copy(framed, 4);
      const messages = await decodeMessages(new Decoder(framed));
      // A control record (a transaction's marker) is no record of the log's: its offset is acknowledged as a gap.
      return messages.filter((m) => !(m as { isControlRecord?: boolean }).isControlRecord).map((m) => toKafkaRecord(topic, partition, m));
    },
    async close() {
      connected = undefined;
      await cluster.disconnect();
    },
  };
}
