/**
 * The `kafka://` destination's producer on the librdkafka engine: librdkafka's idempotent
 * producer (`enable.idempotence`, so acks=all and at most 5 requests in flight per partition,
 * in order, and its own retries never write a batch twice), through the binding's native API.
 *
 * A send resolves once librdkafka reported every record delivered, and rejects with the first
 * record's error otherwise: nothing counts as written unless confirmed. librdkafka gives up on a
 * record after `message.timeout.ms`, set to 80 % of the poller's bound on one send, so a send of one
 * request has usually settled, one way or the other, before the poller gives up on it (a send the
 * destination splits into several requests gets that much per request); a record reported as
 * failed may still have been written (its answer lost), and the caller's next send writes it
 * again: a duplicate, never a loss. A signal that aborts rejects at once; what librdkafka already
 * holds cannot be called back (the binding has no purge) and may still land.
 *
 * Keys go to the partition Java's producer and kafkajs pick for them (`murmur2_random`): a
 * destination's records land where the same key's other records do, whichever engine wrote them.
 * `batch.size` is the destination topic's `max.message.bytes`, so librdkafka never puts records
 * into one batch the topic refuses (the caller splits its requests by the same bound).
 */
import type { LibrdKafkaError, MessageHeader } from '@confluentinc/kafka-javascript';
import { ConfigError } from '../../errors.ts';
import { abortable } from '../abortable.ts';
import type { Logger } from '../../observe/logger.ts';
import type { OutgoingRecord, RecordSink } from '../producer-port.ts';
import type { KafkaSecurity } from '../security.ts';
import { loadRdkafka } from './client.ts';
import { CONNECT_WITHIN_MS, rdkafkaConnection } from './connection.ts';
import { ERR_FATAL } from './fatal.ts';

export interface RdkafkaProducerOptions {
  /** The trigger's path, named by the start's errors and when the binding is missing. */
  askedBy: string;
  brokers: string[];
  security?: KafkaSecurity;
  logger: Logger;
  clientId: string;
  /** The destination topic's max.message.bytes: the largest batch librdkafka may build. */
  maxMessageBytes: number;
  /** How long librdkafka keeps trying a record before it reports it failed. */
  deliveryTimeoutMs: number;
  /** How long connect() waits for the cluster's metadata (default 30 s). */
  connectWithinMs?: number;
}

/** How often delivery reports are served. */
const POLL_EVERY_MS = 5;
/** librdkafka's own floor for `message.max.bytes`, and its default. */
const LIBRDKAFKA_MESSAGE_MAX_BYTES = 1_000_000;
/** Room for the request's framing above the largest batch. */
const REQUEST_FRAMING_BYTES = 64 * 1024;
/** librdkafka's MSG_SIZE_TOO_LARGE, the broker's and its own check's alike. */
const MSG_SIZE_TOO_LARGE = 10;

type NativeProducer = InstanceType<ReturnType<typeof loadRdkafka>['Producer']>;
type Delivered = (error: Error | undefined) => void;

export class RdkafkaProducer implements RecordSink {
  private closing: Promise<void> | undefined;
  /** Records queued and not yet reported: settled as failed if the producer closes first (no report comes after that). */
  private readonly pending = new Set<Delivered>();
  /** librdkafka's idempotent producer after a fatal error (a fenced producer id): every later record fails, so the destination replaces it. */
  broken = false;

  private constructor(private readonly producer: NativeProducer, private readonly redact: <T>(value: T) => T) {
    producer.on('event.error', (e: LibrdKafkaError) => {
      if (e.isFatal) this.broken = true;
    });
  }

  static async connect(o: RdkafkaProducerOptions): Promise<RdkafkaProducer> {
    const { Producer } = loadRdkafka(o.askedBy);
    const connection = rdkafkaConnection({ askedBy: o.askedBy, brokers: o.brokers, groupId: o.clientId, logger: o.logger, ...(o.security ? { security: o.security } : {}) });
    const config = {
      ...connection.config,
      'bootstrap.servers': o.brokers.join(','),
      'client.id': o.clientId,
      'enable.idempotence': true,
      'batch.size': o.maxMessageBytes,
      'message.max.bytes': Math.max(LIBRDKAFKA_MESSAGE_MAX_BYTES, o.maxMessageBytes + REQUEST_FRAMING_BYTES),
      'linger.ms': 5,
      dr_cb: true,
    };
    // Topic-level properties: in the global configuration the binding ignores them (seen: keys went to other partitions than kafkajs's).
    const topicConfig = { acks: 'all', partitioner: 'murmur2_random', 'message.timeout.ms': o.deliveryTimeoutMs };
    let producer: NativeProducer;
    try {
      producer = new Producer(config as never, topicConfig as never);
    } catch (e) {
      // No cause: librdkafka's message may quote a secret; the redacted one is the message.
      throw new ConfigError(`${o.askedBy}: librdkafka refused the destination producer's configuration: ${connection.redact((e as Error).message)}`);
    }
    let refused: ((e: Error) => void) | undefined;
    connection.watch(producer, () => refused);
    producer.on('delivery-report', (err: LibrdKafkaError | null | undefined, report: { opaque?: unknown }) => {
      const delivered = report?.opaque as Delivered | undefined;
      delivered?.(err ? deliveryError(err, connection.redact) : undefined);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        refused = reject;
        producer.connect({ timeout: o.connectWithinMs ?? CONNECT_WITHIN_MS }, (err) =>
          err
            ? reject(Object.assign(new Error(`the destination producer could not reach the brokers at ${o.brokers.join(',')}: ${connection.redact(err.message)}`), { code: err.code, retriable: true }))
            : resolve(),
        );
      });
    } catch (e) {
      // A failed connect has already marked the client disconnected, and the binding's disconnect
      // (a flush first) would then throw "Producer not connected" in place of this error.
      if (producer.isConnected()) await new Promise<void>((resolve) => producer.disconnect(() => resolve())).catch(() => undefined);
      throw e;
    } finally {
      refused = undefined;
    }
    producer.setPollInterval(POLL_EVERY_MS);
    return new RdkafkaProducer(producer, connection.redact);
  }

  async send(topic: string, records: OutgoingRecord[], signal?: AbortSignal): Promise<void> {
    if (records.length === 0) return;
    signal?.throwIfAborted();
    if (this.closing) throw Object.assign(new Error('the destination producer is closing'), { retriable: true });
    const deliveries: Array<Promise<Error | undefined>> = [];
    for (const r of records) {
      let delivered!: Delivered;
      deliveries.push(new Promise((resolve) => {
        delivered = (error) => {
          this.pending.delete(delivered);
          if ((error as { fatal?: boolean } | undefined)?.fatal) this.broken = true;
          resolve(error);
        };
      }));
      this.pending.add(delivered);
      try {
        this.producer.produce(topic, r.partition ?? null, toBuffer(r.value), r.key ?? undefined, r.timestamp ?? Date.now(), delivered, toHeaders(r.headers));
      } catch (e) {
        // Not queued (its queue full, a record over message.max.bytes): no report comes for it.
        delivered(deliveryError(e as LibrdKafkaError, this.redact));
        break;
      }
    }
    const settled = Promise.all(deliveries).then((errors) => {
      const failed = errors.find((e) => e !== undefined);
      if (failed) throw failed;
    });
    return abortable(settled, signal);
  }

  /**
   * Waits for what librdkafka holds (its flush, up to 5 s), then disconnects. A record still
   * unreported then never will be (the binding drops its delivery reports with the client): its
   * send fails, retriable, and the caller sends it again (it may have been written: a duplicate).
   */
  disconnect(): Promise<void> {
    return (this.closing ??= new Promise<void>((resolve) => {
      const done = () => {
        const unreported = Object.assign(new Error('the destination producer closed before librdkafka confirmed the record'), { retriable: true });
        for (const delivered of [...this.pending]) delivered(unreported);
        resolve();
      };
      try {
        this.producer.disconnect(5_000, done);
      } catch {
        done(); // never connected, or already gone
      }
    }));
  }
}

/** The record's error as the destination reads it: retriable, and `MESSAGE_TOO_LARGE` when the size was refused (the limit is then read again). */
function deliveryError(e: LibrdKafkaError, redact: <T>(value: T) => T): Error {
  return Object.assign(new Error(`librdkafka did not deliver the record: ${redact(e.message)}`), {
    code: e.code,
    retriable: true,
    ...(e.code === ERR_FATAL || e.isFatal ? { fatal: true } : {}),
    ...(e.code === MSG_SIZE_TOO_LARGE ? { type: 'MESSAGE_TOO_LARGE' } : {}),
  });
}

function toBuffer(value: Buffer | string | null): Buffer | null {
  return value === null || Buffer.isBuffer(value) ? value : Buffer.from(value);
}

/** Sluice's header pairs -> the binding's list of one-entry objects, repeats and order kept. */
function toHeaders(headers: OutgoingRecord['headers']): MessageHeader[] | undefined {
  return headers?.map(([name, value]) => ({ [name]: value }));
}
