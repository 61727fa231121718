/**
 * A starting position committed for a librdkafka (KIP-848) group without joining it. kafkajs's
 * admin commits by joining the group as a classic member, seeking and leaving; for a group on the
 * consumer protocol that is a classic member in a group it then has to convert, and kafkajs cannot
 * see whether such a group runs members (its describe answers `Dead`, rdkafka/describe-group.ts).
 * A consumer that never subscribes commits as no member (generation -1), which Kafka accepts only
 * while the group has no member: the refusal then means another poller runs it already. The
 * binding reports only a request's error, not a partition's (seen: a commit into a running
 * KIP-848 group "succeeded" and wrote nothing), so the caller reads the offsets back.
 */
import type { LibrdKafkaError } from '@confluentinc/kafka-javascript';
import { rdkafkaSecurityConfig } from './security.ts';
import type { KafkaSecurity } from '../security.ts';
import { loadRdkafka } from './client.ts';

/** Kafka's answers to a commit from no member of a group that has members. */
const GROUP_HAS_MEMBERS = new Set([22 /* ILLEGAL_GENERATION */, 25 /* UNKNOWN_MEMBER_ID */, 110 /* FENCED_MEMBER_EPOCH */, 113 /* STALE_MEMBER_EPOCH */]);

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

/** True once committed; false when the group has members (nothing written). */
export async function commitWithoutJoining(o: CommitWithoutJoining): Promise<boolean> {
  const { KafkaConsumer } = loadRdkafka(o.askedBy);
  const consumer = new KafkaConsumer(
    { ...rdkafkaSecurityConfig(o.security), 'bootstrap.servers': o.brokers.join(','), 'client.id': 'sluice-start', 'group.id': o.groupId, 'enable.auto.commit': false } as never,
    {},
  );
  await new Promise<void>((resolve, reject) => consumer.connect({ timeout: 30_000 }, (err) => (err ? reject(err) : resolve())));
  try {
    const offsets = o.partitions.map((p) => ({ topic: o.topic, partition: p.partition, offset: p.offset }));
    return await new Promise<boolean>((resolve, reject) =>
      (consumer as unknown as Committer).commitCb(offsets, (err) => {
        if (!err) return resolve(true);
        if (GROUP_HAS_MEMBERS.has(err.code)) return resolve(false);
        reject(Object.assign(new Error(`committing the starting position of ${o.groupId}: ${err.message}`), { code: err.code }));
      }),
    );
  } finally {
    await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
  }
}
