/**
 * Queue mode's work (consumptionMode: queue, docs/queue-mode.md): what the share member acquired
 * is cut into chunks (batchSize, Lambda's payload limit), invoked up to `concurrency` at once, and
 * acknowledged record by record:
 * - a record the function finished, or one the filters drop, is accepted;
 * - a record it failed (the whole invocation, or an item its ReportBatchItemFailures answer names) is
 *   released after the trigger's retry backoff, and comes back at the next delivery count;
 * - at its last delivery (maximumRetryAttempts + 1), or older than maximumRecordAgeInSeconds, or
 *   unreadable, it goes to the on-failure destination and is rejected once it is there.
 * While a record is in hand (invoked, waiting out its backoff, waiting for the destination) its
 * acquisition lock is renewed every half lock (KIP-1222), so the broker does not give it to
 * another member meanwhile.
 */
import type { TriggerSpec } from '../config/types.ts';
import { queueRetries } from '../config/queue-mode.ts';
import type { KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from '../failure/backoff.ts';
import { isExpired, type FailureReason } from '../failure/policy.ts';
import { ACK, type AckType } from '../kafka/share/messages.ts';
import type { AcquiredBatch, ShareRecord } from '../kafka/share/share-member.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import type { ChunkInvoker } from '../poller/chunk-invoker.ts';
import type { Delivery } from '../poller/delivery.ts';
import { planWork, type WorkItem } from '../poller/work-plan.ts';
import { readBatchResponse } from '../event/batch-response.ts';

export interface Acknowledger {
  acknowledge(partition: number, offsets: readonly number[], type: AckType): void;
  /** False where the broker cannot renew locks (ShareAcknowledge v1). */
  renew(partition: number, offsets: readonly number[]): boolean;
}

export interface QueueRunnerOptions {
  trigger: TriggerSpec;
  concurrency: number;
  invoker: ChunkInvoker;
  delivery: Delivery;
  events: Instrumentation;
  logger: Logger;
  matches: (record: KafkaRecord) => boolean;
  maxPayloadBytes: number;
  envelopeBytes: (partition: number) => number;
}

/** No heartbeat to send: the share member heartbeats its group on its own timer. */
const noHeartbeat = async (): Promise<void> => {};
const DESTINATION_RETRY_MS = 1_000;

export class QueueRunner {
  private active = 0;
  /** Chunks waiting their turn, their locks renewed meanwhile (they may wait several invocations' time). */
  private readonly waiting: Array<{ batch: AcquiredBatch; item: WorkItem; renewal: { stop(): void } }> = [];
  private idle: Array<() => void> = [];
  /** Backoffs and destination waits under way: a stop ends them. */
  private readonly sleepers = new Set<() => void>();
  private stopping = false;
  private warnedNoRenew = false;
  private acks!: Acknowledger;
  /** Set when the group's delivery limit is below what the trigger's retries need and Sluice could not raise it. */
  private retriesCap: number | undefined;

  constructor(private readonly o: QueueRunnerOptions) {}

  /** The member whose records these are (set before its first batch; again for a member that replaces it). */
  /** Acknowledges, and says so (metrics: sluice_queue_acknowledgements_total). */
  private ack(partition: number, offsets: readonly number[], type: AckType): void {
    this.acks.acknowledge(partition, offsets, type);
    const name = type === ACK.ACCEPT ? 'accept' : type === ACK.RELEASE ? 'release' : 'reject';
    this.o.events.emit('queue.acknowledged', { functionName: this.o.trigger.functionName, topic: this.o.trigger.topic, partition, type: name, count: offsets.length });
  }

  /** Fewer retries than the trigger's: the group gives a record up after `retries + 2` deliveries, and the last must reach the destination. */
  capRetries(retries: number): void {
    this.retriesCap = retries;
  }

  bind(acks: Acknowledger): void {
    this.acks = acks;
    this.stopping = false; // a member that replaces a stopped one
  }

  take(batch: AcquiredBatch): void {
    // A fetch under way when the stop began: what it acquired goes back at once.
    const { trigger } = this.o;
    const { records } = batch;
    this.o.events.emit('queue.acquired', {
      functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, count: records.length, redelivered: records.filter((r) => r.deliveryCount > 1).length,
      leader: batch.leader, ranges: offsetRanges(records),
    });
    if (this.stopping) return this.ack(batch.partition, batch.records.map((r) => r.offset), ACK.RELEASE);
    const limits = { batchSize: trigger.batchSize, maxPayloadBytes: this.o.maxPayloadBytes, envelopeBytes: this.o.envelopeBytes(batch.partition) };
    const work = planWork(batch.records, this.o.matches, limits, [], undefined);
    const planned = new Set(work.flatMap((w) => w.records.map((r) => r.offset)));
    const dropped = batch.records.filter((r) => !planned.has(r.offset)).map((r) => r.offset);
    if (dropped.length) {
      this.ack(batch.partition, dropped, ACK.ACCEPT);
      this.o.events.emit('poller.filtered', { functionName: trigger.functionName, topic: batch.topic, partition: batch.partition, count: dropped.length });
    }
    for (const item of work) this.waiting.push({ batch, item, renewal: this.renewWhileHeld(batch, item.records as ShareRecord[]) });
    this.pump();
  }

  /** Stops starting work; resolves when what runs has ended (what waited is released to the broker by the member's close). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    for (const w of this.waiting.splice(0)) {
      w.renewal.stop();
      this.ack(w.batch.partition, w.item.records.map((r) => r.offset), ACK.RELEASE);
    }
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (!this.stopping && this.active < this.o.concurrency && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.active++;
      void this.run(next.batch, next.item, next.renewal)
        .catch((e: unknown) => {
          // Never left without an answer: what failed here is delivered again.
          this.o.logger.error('queue mode: a chunk failed outside its invocation; its records are released', { partition: next.batch.partition, error: e });
          next.renewal.stop();
          this.ack(next.batch.partition, next.item.records.map((r) => r.offset), ACK.RELEASE);
        })
        .finally(() => {
          this.active--;
          if (this.active === 0) for (const f of this.idle.splice(0)) f();
          this.pump();
        });
    }
  }

  private async run(batch: AcquiredBatch, item: WorkItem, renewal: { stop(): void }): Promise<void> {
    const records = item.records as ShareRecord[];
    const { partition } = batch;
    try {
      if (item.giveUp) return await this.toDestination(batch, records, item.giveUp, item.error);
      const now = Date.now();
      const expired = records.filter((r) => isExpired(r, this.o.trigger.failure, now));
      if (expired.length) await this.toDestination(batch, expired, 'RecordAgeExceeded', undefined);
      const live = expired.length ? records.filter((r) => !expired.includes(r)) : records;
      if (live.length === 0) return;
      // The attempt the console and the events show is the delivery count.
      const delivery = Math.max(...live.map((r) => r.deliveryCount));
      const result = await this.o.invoker.invoke({ topic: batch.topic, partition, fetchedAt: batch.lockExpiresAt - 1, heartbeat: noHeartbeat }, { ...item, records: live, attempts: delivery - 1 }, false);
      if (!result.ok) return await this.failed(batch, live, result.error.message);
      const reading = this.o.trigger.failure.reportBatchItemFailures ? readBatchResponse(result.payload, live) : undefined;
      if (reading && !reading.ok) return await this.failed(batch, live, reading.reason);
      const failed = new Set(reading?.ok ? reading.failed : []);
      const done = live.filter((r) => !failed.has(r.offset)).map((r) => r.offset);
      if (done.length) this.ack(partition, done, ACK.ACCEPT);
      if (failed.size) await this.failed(batch, live.filter((r) => failed.has(r.offset)), 'reported failed (ReportBatchItemFailures)');
    } finally {
      renewal.stop();
    }
  }

  /** Records an invocation did not finish: released after their backoff, or at their last delivery sent to the destination and rejected. */
  private async failed(batch: AcquiredBatch, records: ShareRecord[], error: string): Promise<void> {
    const retries = Math.min(queueRetries(this.o.trigger.failure.maximumRetryAttempts), this.retriesCap ?? Infinity);
    const last = records.filter((r) => r.deliveryCount > retries);
    const again = records.filter((r) => r.deliveryCount <= retries);
    await Promise.all([
      last.length ? this.toDestination(batch, last, 'RetryAttemptsExhausted', error) : undefined,
      again.length ? this.releaseAfterBackoff(batch, again) : undefined,
    ]);
  }

  private async releaseAfterBackoff(batch: AcquiredBatch, records: ShareRecord[]): Promise<void> {
    const delayMs = retryDelayMs(Math.max(...records.map((r) => r.deliveryCount)));
    const first = records[0]!;
    this.o.events.emit('poller.retry_scheduled', { functionName: this.o.trigger.functionName, topic: batch.topic, partition: batch.partition, offset: first.offset, attempt: first.deliveryCount + 1, delayMs });
    if (!this.stopping) await this.sleep(delayMs);
    this.ack(batch.partition, records.map((r) => r.offset), ACK.RELEASE);
  }

  /** Sends to the on-failure destination until it takes them (the lock renewed meanwhile), then rejects them. */
  private async toDestination(batch: AcquiredBatch, records: ShareRecord[], reason: FailureReason, error: string | undefined): Promise<void> {
    const keepAlive = { partition: batch.partition, heartbeat: noHeartbeat };
    const attempts = Math.max(...records.map((r) => r.deliveryCount));
    while (!(await this.o.delivery.sendToDestination(keepAlive, records, reason, attempts, error))) {
      if (this.stopping) {
        // Not sent: delivered again after the restart (a delivery more, counted by the broker).
        this.ack(batch.partition, records.map((r) => r.offset), ACK.RELEASE);
        return;
      }
      await this.sleep(DESTINATION_RETRY_MS);
    }
    this.ack(batch.partition, records.map((r) => r.offset), ACK.REJECT);
  }

  private renewWhileHeld(batch: AcquiredBatch, records: ShareRecord[]): { stop(): void } {
    const lockMs = Math.max(1_000, batch.lockExpiresAt - Date.now());
    const timer = setInterval(() => {
      if (this.acks.renew(batch.partition, records.map((r) => r.offset)) || this.warnedNoRenew) return;
      this.warnedNoRenew = true;
      this.o.logger.warn('the broker cannot renew acquisition locks (ShareAcknowledge v2, Kafka 4.2+): a record held past its lock goes to another member and is delivered twice');
    }, Math.floor(lockMs / 2));
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}

/** Offsets in ascending order as inclusive ranges of consecutive ones. */
function offsetRanges(records: readonly ShareRecord[]): Array<{ from: number; until: number }> {
  const out: Array<{ from: number; until: number }> = [];
  for (const { offset } of records) {
    const last = out[out.length - 1];
    if (last && offset === last.until + 1) last.until = offset;
    else out.push({ from: offset, until: offset });
  }
  return out;
}
