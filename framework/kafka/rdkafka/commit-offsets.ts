/**
 * A starting position committed for a librdkafka (KIP-848) group without joining it. kafkajs's
 * admin commits by joining the group as a classic member, seeking and leaving; for a group on the
 * consumer protocol that is a classic member in a group it then has to convert, and kafkajs cannot
 * see whether such a group runs members (its describe answers `Dead`, rdkafka/describe-group.ts).
 * A consumer that never subscribes commits as no member (generation -1), which Kafka accepts only
 * while the group has no member: the refusal then means another poller runs it already. The
 * binding's commitCb calls back once librdkafka has queued the commit, and the broker's answer
 * reaches only offset_commit_cb, served by polls this consumer never makes (seen: a commit into
 * a running KIP-848 group "succeeded" and wrote nothing). So this only queues the commit and
 * waits for it to be sent (a close flushes it), and the caller reads the offsets back.
 */
import type { LibrdKafkaError } from '@confluentinc/kafka-javascript';
import { rdkafkaSecurityConfig } from './security.ts';
import type { KafkaSecurity } from '../security.ts';
import { loadRdkafka } from './client.ts';

export interface CommitWithoutJoining {
  brokers: string[];
  security: KafkaSecurity;
  groupId: string;
  topic: string;
  partitions: Array<{ partition: number; offset: number }>;
  /** The trigger's path, named when the binding is missing. */
  askedBy: string;
}

type Committer = { commitCb(offsets: Array<{ topic: string; partition: number; offset: number }>, cb: (err: LibrdKafkaError | null) => void): void };

/** Sends the commit (whether the broker took it is for the caller to read back); rejects when librdkafka could not queue it. */
export async function commitWithoutJoining(o: CommitWithoutJoining): Promise<void> {
  const { KafkaConsumer } = loadRdkafka(o.askedBy);
  const consumer = new KafkaConsumer(
    { ...rdkafkaSecurityConfig(o.security), 'bootstrap.servers': o.brokers.join(','), 'client.id': 'sluice-start', 'group.id': o.groupId, 'enable.auto.commit': false } as never,
    {},
  );
  await new Promise<void>((resolve, reject) => consumer.connect({ timeout: 30_000 }, (err) => (err ? reject(err) : resolve())));
  try {
    const offsets = o.partitions.map((p) => ({ topic: o.topic, partition: p.partition, offset: p.offset }));
    await new Promise<void>((resolve, reject) =>
      (consumer as unknown as Committer).commitCb(offsets, (err) =>
        err ? reject(Object.assign(new Error(`committing the starting position of ${o.groupId}: ${err.message}`), { code: err.code })) : resolve(),
      ),
    );
  } finally {
    // The close sends what is queued before it leaves.
    await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
  }
}
