/**
 * The librdkafka member's commits, each resolved on the coordinator's answer. The binding's
 * commitCb is librdkafka's commitAsync and calls back once the commit is queued; the answer (a
 * refusal too) reaches only offset_commit_cb, served inside the member's polls. A commit is matched
 * to its answer by partition and offset.
 *
 * A refusal that says the coordinator is busy or moving (its offsets loading after a restart, a
 * member epoch one heartbeat behind) is sent again, as kafkajs retries it inside its request:
 * librdkafka gives a manual commit's such refusals back to the application. Measured in the fault
 * tier's rolling restart: 8 commits came back COORDINATOR_LOAD_IN_PROGRESS, and without the retry
 * each made the partition's owner invoke its records again.
 */
import type { LibrdKafkaError, TopicPartition } from '@confluentinc/kafka-javascript';

/** A commit librdkafka has not answered by then counts as refused (it retries what it can meanwhile, and waits for a coordinator). */
const ANSWER_WITHIN_MS = 60_000;
/** Sends of one commit at most, refused-and-retriable ones included, and the wait before the first retry (doubling). */
const ATTEMPTS = 6;
const FIRST_RETRY_MS = 100;

/** Kafka's and librdkafka's answers that say "again, later", not "not yours". */
const RETRIABLE = new Map<number, string>([
  [7, 'REQUEST_TIMED_OUT'],
  [14, 'COORDINATOR_LOAD_IN_PROGRESS'],
  [15, 'COORDINATOR_NOT_AVAILABLE'],
  [16, 'NOT_COORDINATOR'],
  [113, 'STALE_MEMBER_EPOCH'],
  [-195, '_TRANSPORT'],
  [-180, '_WAIT_COORD'],
]);
export const ERR_METADATA_TOO_LARGE = 12;
const ERR_TIMED_OUT = -185;
const ERR_STATE = -172;

export type CommitAnswer = { code: number; message: string } | null;

interface Pending {
  partition: number;
  offset: number;
  answer(err: CommitAnswer): void;
}

type Committer = {
  commitCb(offsets: Array<TopicPartition & { offset: number; metadata?: string | null }>, cb: (err: LibrdKafkaError | null) => void): void;
};

export class Commits {
  private readonly pending: Pending[] = [];

  constructor(
    private readonly consumer: Committer,
    private readonly topic: string,
    /** Says a retry is coming (at debug: a busy coordinator is expected at restarts). */
    private readonly retryLog: (message: string, fields: Record<string, unknown>) => void,
  ) {}

  /**
   * Commits `offset` (with `metadata` when given) and resolves with the coordinator's last answer:
   * null once it is on the broker. Busy-coordinator refusals are sent again while `stillOwned()`.
   */
  async commit(partition: number, offset: number, metadata: string | null | undefined, stillOwned: () => boolean): Promise<CommitAnswer> {
    for (let attempt = 1; ; attempt++) {
      const err = await this.send(partition, offset, metadata);
      const retriable = err && RETRIABLE.get(err.code);
      if (!retriable || attempt >= ATTEMPTS || !stillOwned()) return err;
      const waitMs = FIRST_RETRY_MS * 2 ** (attempt - 1);
      this.retryLog(`the coordinator answered the commit with ${retriable}: sending it again in ${waitMs} ms`, { partition, offset, attempt });
      await new Promise((r) => setTimeout(r, waitMs));
      if (!stillOwned()) return err;
    }
  }

  /** librdkafka's answer (offset_commit_cb): the first pending commit of each partition at that offset takes it. */
  answered(err: LibrdKafkaError | null | undefined, committed: Array<TopicPartition & { offset?: number }>): void {
    for (const c of committed) {
      if (c.topic !== this.topic) continue;
      this.pending.find((p) => p.partition === c.partition && p.offset === c.offset)?.answer(err ?? null);
    }
  }

  /** The member left: nothing will answer what is still pending. */
  abandon(): void {
    for (const p of [...this.pending]) p.answer({ code: ERR_STATE, message: 'the member left before the commit was answered' });
  }

  private send(partition: number, offset: number, metadata: string | null | undefined): Promise<CommitAnswer> {
    return new Promise((resolve) => {
      const pending: Pending = {
        partition,
        offset,
        answer: (err) => {
          clearTimeout(timer);
          const at = this.pending.indexOf(pending);
          if (at < 0) return;
          this.pending.splice(at, 1);
          resolve(err);
        },
      };
      const timer = setTimeout(() => pending.answer({ code: ERR_TIMED_OUT, message: `no answer to the commit in ${ANSWER_WITHIN_MS / 1000} s` }), ANSWER_WITHIN_MS);
      this.pending.push(pending);
      // Calls back when the commit is queued: only a refusal to queue it (not connected) is an answer.
      this.consumer.commitCb([{ topic: this.topic, partition, offset, ...(metadata !== undefined ? { metadata } : {}) }], (err) => err && pending.answer(err));
    });
  }
}
