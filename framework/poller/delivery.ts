/**
 * The two ways records leave a partition for good: a commit to the group coordinator (only
 * while the member owns the partition), and the on-failure destination. Both report what
 * they did; neither throws, so the processor decides what a refusal means.
 */
import type { TriggerSpec } from '../config/types.ts';
import { maxTimeoutFor } from '../chunking/budget.ts';
import { isSluiceError } from '../errors.ts';
import { asReceived, type KafkaRecord } from '../event/record.ts';
import type { DestinationSender } from '../failure/destinations/index.ts';
import { isSchemaFailure, type FailureReason } from '../failure/policy.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import type { OffsetRange } from '../parallel/done-ranges.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { withHeartbeats, type KeepAlive } from './keep-alive.ts';

/**
 * The longest a send to the on-failure destination may take before it counts as failed; at most
 * half of what the poll interval leaves, so a send always fits the budget of a fresh fetch.
 */
export const DESTINATION_SEND_TIMEOUT_MS = 30_000;

/** A trigger's bound on one send to its destination. */
export function destinationSendWithinMs(maxPollIntervalMs: number): number {
  return Math.min(DESTINATION_SEND_TIMEOUT_MS, Math.floor(maxTimeoutFor(maxPollIntervalMs) / 2));
}

export class Delivery {
  /** This trigger's bound on one send (it must fit the poll budget like a chunk). */
  readonly sendTimeoutMs: number;

  constructor(
    private readonly trigger: TriggerSpec,
    private readonly destination: DestinationSender | undefined,
    private readonly events: Instrumentation,
    private readonly logger: Logger,
    private readonly heartbeatIntervalMs: number,
    maxPollIntervalMs: number,
    /** Whether a record the schema registry could not decode is its own fault, to skip without a destination (RecordDecoder.mayDrop). */
    private readonly registryMayDrop: (record: KafkaRecord) => boolean = () => false,
  ) {
    this.sendTimeoutMs = destinationSendWithinMs(maxPollIntervalMs);
  }

  /** Commits `offset` (the next record to read); false if the commit was not made. */
  async commit(batch: PartitionBatch, offset: number): Promise<boolean> {
    return (await this.commitWith(batch, offset)) === 'ok';
  }

  /**
   * Commits `offset` with the done ranges beyond it in `metadata` (parallelizationFactor > 1), and
   * leaves the fetch position alone. `metadata-too-large` is not logged: the caller shrinks it.
   */
  async commitWith(batch: PartitionBatch, offset: number, withMetadata?: string | null, done: readonly OffsetRange[] = []): Promise<'ok' | 'refused' | 'metadata-too-large'> {
    const metadata = withMetadata === undefined ? undefined : { metadata: withMetadata };
    const ids = { functionName: this.trigger.functionName, topic: batch.topic, partition: batch.partition, offset, ...(done.length ? { done } : {}) };
    const started = performance.now();
    const result = metadata ? await batch.commit(offset, metadata) : await batch.commit(offset);
    if (result.ok) {
      const metadataBytes = metadata ? { metadataBytes: metadata.metadata?.length ?? 0, doneBeyond: done.reduce((n, r) => n + r.until - r.from + 1, 0) } : {};
      this.events.emit('poller.commit', { ...ids, groupId: this.trigger.consumerGroupId, durationMs: performance.now() - started, ...metadataBytes });
      return 'ok';
    }
    if (result.reason === 'metadata-too-large') return 'metadata-too-large';
    this.logger.warn(
      result.reason === 'not-owned'
        ? 'partition no longer owned: commit not sent; its new owner resumes from the last committed offset'
        : 'commit refused by the coordinator; the records will be processed again by the partition owner',
      { partition: batch.partition, offset, error: result.error },
    );
    this.events.emit('poller.commit_refused', { ...ids, reason: result.reason, ...(result.error ? { error: result.error.message } : {}) });
    return 'refused';
  }

  /**
   * Sends records the policy gave up on; true once they are safely there. Without a
   * destination only a record too large to invoke or one the schema registry could not decode
   * can get here (the config refuses finite retries or a record age without one): it is logged
   * with its coordinates and skipped, as AWS drops it, except a registry failure while the
   * registry has decoded no record yet (false: the partition waits on it).
   */
  async sendToDestination(batch: KeepAlive, records: KafkaRecord[], reason: FailureReason, attempts: number, error: string | undefined): Promise<boolean> {
    const first = records[0]!;
    const ids = { functionName: this.trigger.functionName, topic: first.topic, partition: first.partition, offsets: records.map((r) => r.offset), reason };
    if (!this.destination) {
      if (isSchemaFailure(reason) && !records.every((r) => this.registryMayDrop(r))) {
        // Not (yet) the record's own fault: a wrong schemaRegistryUri, a schema the registry does not show yet, one Sluice refuses.
        this.logger.error(
          `the schema registry could not decode this record (${reason}) and no destinationConfig.onFailure is set: the partition waits here and tries again, ` +
            'as long as the registry has decoded no record of this trigger (a wrong schemaRegistryUri fails every record alike), the schema is one it answered unusably or Sluice refuses, ' +
            'or, for a schema it does not have, for 5 minutes (one just registered may not show on every registry node yet); then such a record is logged and skipped, as AWS drops it. ' +
            'Set destinationConfig.onFailure.destination to keep such records, or fix schemaRegistryUri or the schema.',
          { ...ids, error },
        );
        this.events.emit('poller.destination_failed', { ...ids, destination: '(none)', error: error ?? reason });
        return false;
      }
      this.logger.error('record cannot be invoked and no destinationConfig.onFailure is set: skipped (set destinationConfig.onFailure.destination to keep such records)', { ...ids, error });
      this.events.emit('poller.skipped', ids);
      return true;
    }
    const at = Date.now();
    // A destination receives the records as they were read, not as a schema registry decoded them.
    const failed = records.map((record) => ({ record: asReceived(record), reason, attempts, functionName: this.trigger.functionName, consumerGroupId: this.trigger.consumerGroupId, at, ...(error ? { error } : {}) }));
    try {
      await withHeartbeats(batch, this.heartbeatIntervalMs, this.logger, () => this.bounded((signal) => this.destination!.send(failed, signal)));
    } catch (e) {
      const tooLarge = isSluiceError(e) && e.code === 'DESTINATION_RECORD_TOO_LARGE';
      this.logger.error(
        tooLarge ? 'a record does not fit the on-failure destination: the partition waits on it and tries again' : 'on-failure destination unavailable: the partition waits and tries again',
        { ...ids, destination: this.destination.uri, error: e },
      );
      this.events.emit('poller.destination_failed', { ...ids, destination: this.destination.uri, error: (e as Error).message });
      return false;
    }
    this.logger.warn(`sent ${records.length} record${records.length === 1 ? '' : 's'} to ${this.destination.uri}`, { ...ids, attempts, error });
    this.events.emit('poller.sent_to_destination', { ...ids, destination: this.destination.uri, attempts });
    return true;
  }

  /** Runs a send with a deadline: past it the send is aborted and counts as failed. The timer is always cleared. */
  private async bounded(send: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error(`no answer from ${this.destination!.uri} within ${this.sendTimeoutMs} ms`));
      }, this.sendTimeoutMs);
    });
    try {
      await Promise.race([send(abort.signal), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
