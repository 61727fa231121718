/**
 * Sends records: the Kafka on-failure destination, `npm run produce`, examples and tests.
 *
 * Never reports a record as written that is not in the log. kafkajs 2.2.4's `send()` can:
 * when one call covers partitions led by several brokers and one broker fails, its retry keeps
 * the other brokers' earlier answers, and a partition whose new leader already answered is never
 * sent again, while `send()` resolves (tulios/kafkajs#1303, open; measured on a three-node
 * cluster: 5 of 3,600 records lost in a rolling restart). So a send here is cut into one kafkajs
 * `send()` per partition: each attempt goes to one leader, and a failed one is retried whole.
 * Its answer is trusted only when it confirms that partition without an error.
 *
 * The producer is idempotent, so a retry inside one send (an answer lost on the way back) does
 * not write the batch twice. kafkajs rolls a partition's sequence back after a failure, which
 * would let the next batch reuse numbers the broker already accepted (and be dropped as a
 * duplicate) if it ran before the retry: sends to one partition therefore run one at a time,
 * and a send that finally failed replaces the producer (a new producer id, fresh sequences).
 * A batch that was written although its send reported failure is then written again by the
 * caller's retry: the one way to a duplicate, never to a loss.
 */
import { abortable, abortReason } from '../abortable.ts';
import { Partitioners, type Admin, type Kafka, type Message, type PartitionMetadata, type Producer } from 'kafkajs';
import type { OutgoingRecord, RecordSink } from '../producer-port.ts';

/** How long a topic's partition list is reused before it is read again (also after any failure). */
const METADATA_TTL_MS = 30_000;

/** A kafkajs producer and the sends running on it: retired after a failure, disconnected once they ended. */
interface Generation {
  producer: Promise<Producer>;
  inFlight: number;
  retired: boolean;
}

export class RecordProducer implements RecordSink {
  private current: Generation;
  private readonly partitioner = Partitioners.DefaultPartitioner();
  private readonly metadata = new Map<string, { at: number; partitions: PartitionMetadata[] }>();
  /** The tail of the sends queued per topic-partition. */
  private readonly queues = new Map<string, Promise<unknown>>();

  private constructor(private readonly kafka: Kafka, private readonly admin: Admin, producer: Producer) {
    this.current = { producer: Promise.resolve(producer), inFlight: 0, retired: false };
  }

  static async connect(kafka: Kafka): Promise<RecordProducer> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      return new RecordProducer(kafka, admin, await connectProducer(kafka));
    } catch (e) {
      await admin.disconnect();
      throw e;
    }
  }

  /**
   * Sends in order per partition, each acknowledged by all in-sync replicas; resolves once every
   * record is confirmed. `signal` gives up on the send: it rejects at once, and a partition's
   * write still queued behind an earlier one is dropped, never started. A write already on the
   * wire cannot be called back (kafkajs has no abort, and a producer disconnected mid-send
   * reconnects to retry): it may still land, a duplicate once the caller sends again.
   */
  async send(topic: string, records: OutgoingRecord[], signal?: AbortSignal): Promise<void> {
    if (records.length === 0) return;
    signal?.throwIfAborted();
    const partitionMetadata = await this.partitionsOf(topic);
    signal?.throwIfAborted();
    const byPartition = new Map<number, Message[]>();
    for (const r of records) {
      const message = toMessage(r);
      const partition = this.partitioner({ topic, partitionMetadata, message });
      const list = byPartition.get(partition);
      if (list) list.push({ ...message, partition });
      else byPartition.set(partition, [{ ...message, partition }]);
    }
    const results = await Promise.allSettled([...byPartition].map(([partition, messages]) => this.queued(topic, partition, () => this.sendPartition(topic, partition, messages), signal)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      this.metadata.delete(topic);
      throw failed.reason;
    }
  }

  async disconnect(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
    this.current.retired = true;
    await Promise.allSettled([this.current.producer.then((p) => p.disconnect()), this.admin.disconnect()]);
  }

  private async sendPartition(topic: string, partition: number, messages: Message[]): Promise<void> {
    const generation = this.current;
    generation.inFlight++;
    try {
      const answers = await (await generation.producer).send({ topic, acks: -1, messages });
      const mine = answers.filter((a) => a.topicName === topic && a.partition === partition);
      if (mine.length !== 1 || mine[0]!.errorCode !== 0) {
        throw Object.assign(new Error(`the write of ${messages.length} record(s) to ${topic}-${partition} was not confirmed (answer: ${JSON.stringify(answers)})`), { retriable: true });
      }
    } catch (e) {
      // Before the next send to this partition can start (it waits on this one): kafkajs has
      // rolled this partition's sequence back, so that producer must take no further send.
      if (this.current === generation) this.retire();
      throw e;
    } finally {
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) void generation.producer.then((p) => p.disconnect()).catch(() => undefined);
    }
  }

  /**
   * Runs `send` after every earlier send to the same partition has settled. Aborted while it
   * waits, it is dropped (with the records it holds) and never starts; the caller's promise
   * rejects at the abort either way.
   */
  private queued(topic: string, partition: number, send: () => Promise<void>, signal?: AbortSignal): Promise<void> {
    const key = `${topic}|${partition}`;
    let job: (() => Promise<void>) | undefined = send;
    const run = (this.queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => {
      const start = job;
      job = undefined;
      if (!start) throw abortReason(signal, 'the send was given up on before it started');
      return start();
    });
    this.queues.set(key, run);
    void run.catch(() => undefined).then(() => {
      if (this.queues.get(key) === run) this.queues.delete(key);
    });
    return abortable(run, signal, () => (job = undefined));
  }

  /** New sends go to a fresh producer (new producer id, fresh sequences); the old one is disconnected once its sends end. */
  private retire(): void {
    this.current.retired = true;
    const next: Generation = { producer: connectProducer(this.kafka), inFlight: 0, retired: false };
    // A failed connect surfaces in the next send, which retires that generation in turn.
    next.producer.catch(() => undefined);
    this.current = next;
  }

  private async partitionsOf(topic: string): Promise<PartitionMetadata[]> {
    const cached = this.metadata.get(topic);
    if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.partitions;
    const { topics } = await this.admin.fetchTopicMetadata({ topics: [topic] });
    const partitions = topics[0]?.partitions ?? [];
    if (partitions.length === 0) throw new Error(`topic "${topic}" has no partitions in the cluster's metadata`);
    this.metadata.set(topic, { at: Date.now(), partitions });
    return partitions;
  }
}

async function connectProducer(kafka: Kafka): Promise<Producer> {
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
    retry: { retries: 5 },
  });
  try {
    await producer.connect();
  } catch (e) {
    await producer.disconnect().catch(() => undefined);
    throw e;
  }
  return producer;
}

function toMessage(r: OutgoingRecord): Message {
  // Without a prototype: a header named constructor or __proto__ is an ordinary header here too
  // (with `{}` it found Object.prototype's members, and a destination copy of such a record threw).
  const headers: Record<string, Buffer[]> = Object.create(null);
  for (const [name, value] of r.headers ?? []) (headers[name] ??= []).push(Buffer.isBuffer(value) ? value : Buffer.from(value));
  return {
    key: r.key ?? null,
    value: r.value,
    headers,
    ...(r.partition === undefined ? {} : { partition: r.partition }),
    ...(r.timestamp === undefined ? {} : { timestamp: String(r.timestamp) }),
  };
}
