/**
 * A queue trigger's member as the supervisor runs it (the member port's GroupMember): a share
 * member on the trigger's kafkajs client (its SASL, TLS or MSK IAM), whose records the queue runner
 * works through. At start it sets two of the share group's settings: `share.auto.offset.reset`
 * from the trigger's startingPosition (TRIM_HORIZON: earliest, LATEST: latest; like a stream
 * trigger's, it decides only where a group with no state yet begins), and `share.delivery.count.limit`
 * one past the deliveries Sluice makes, so the broker never gives a record up before Sluice has
 * sent it to the destination, even one delivered once more after its lock ran out. While it runs it
 * reads the group's backlog every few seconds (share-lag.ts) for /metrics and the scaling metric.
 */
import type { Kafka } from 'kafkajs';
import { groupDeliveryLimit, queueRetries } from '../config/queue-mode.ts';
import type { TriggerSpec } from '../config/types.ts';
import { kafkajsShareTransport } from '../kafka/kafkajs/share-transport.ts';
import type { GroupMember } from '../kafka/member-port.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { settledBy } from '../kafka/settled-by.ts';
import { alterGroupConfig, describeGroupConfig } from '../kafka/share/group-messages.ts';
import { readShareGroup } from '../kafka/share/share-group.ts';
import type { AckBatch } from '../kafka/share/messages.ts';
import { ShareMember } from '../kafka/share/share-member.ts';
import type { Instrumentation, QueueAckName } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import type { QueueRunner } from './queue-runner.ts';
import { backlogOf, watchShareLag, type ShareLagWatch } from './share-lag.ts';

/**
 * What one share fetch may bring back (the broker sends a first batch larger than this whole). It
 * acquires at most maxRecords, but sends batches up to this: more is decoded for nothing.
 */
const FETCH_MAX_BYTES = 1024 * 1024;

export function createQueueMember(o: {
  trigger: TriggerSpec; kafka: Kafka; brokers: string[]; runner: QueueRunner; concurrency: number; logger: Logger; events: Instrumentation; onCrash(error: Error): void;
}): GroupMember {
  const { trigger } = o;
  let lag: ShareLagWatch | undefined;
  let admin: Promise<ClusterAdmin> | undefined;
  /** Set by stop(): a start still under way then reads no backlog (a supervisor stops a member that is still joining). */
  let stopped = false;
  const transport = kafkajsShareTransport(o.kafka);
  const started = Date.now();
  const member = new ShareMember({
    groupId: trigger.consumerGroupId,
    topic: trigger.topic,
    transport,
    logger: o.logger,
    // Records in hand at most: what the invocations at once take, and as many waiting their turn.
    maxInFlight: o.concurrency * trigger.batchSize * 2,
    fetch: { maxWaitMs: 500, maxBytes: FETCH_MAX_BYTES, maxRecords: Math.min(trigger.batchSize * o.concurrency, 10_000) },
    onBatch: (batch) => o.runner.take(batch),
    onCrash: o.onCrash,
    onAcknowledged: (partition, batches, outcome, error) =>
      o.events.emit('queue.ack_result', { functionName: trigger.functionName, topic: trigger.topic, partition, ranges: ackRanges(batches), outcome, ...(error !== undefined ? { error } : {}) }),
    onAssigned: (partitions) =>
      o.events.emit('group.join', { groupId: trigger.consumerGroupId, memberId: member.memberId(), isLeader: false, assignment: { [trigger.topic]: partitions }, durationMs: Date.now() - started }),
  });
  o.runner.bind(member);
  const reset = trigger.startingPosition === 'LATEST' ? 'latest' : 'earliest';
  const limit = groupDeliveryLimit(trigger.failure.maximumRetryAttempts);

  /** The group's two settings from the trigger; refused, what the group has instead, and the retries capped below its delivery limit. */
  const settle = async (): Promise<Settled> => {
    const settings = { 'share.auto.offset.reset': reset, 'share.delivery.count.limit': String(limit) };
    const set = await transport.send('any', alterGroupConfig(trigger.consumerGroupId, settings)).catch((e: unknown) => ({ errorCode: -1, errorMessage: (e as Error).message }));
    const kept = set.errorCode === 0 || stopped ? undefined : await groupSettings(transport, trigger.consumerGroupId);
    const capped = kept?.limit !== undefined && kept.limit < limit ? Math.max(0, kept.limit - 2) : undefined;
    if (capped !== undefined) o.runner.capRetries(capped);
    return { reset, limit, refused: set.errorCode === 0 ? undefined : { error: set.errorCode, message: set.errorMessage }, kept, capped };
  };

  /** Reads the group's backlog every few seconds for /metrics and the scaling metric (share-lag.ts). */
  const watchBacklog = (): ShareLagWatch =>
    watchShareLag({
      read: async () => {
        const logs = await (admin ??= ClusterAdmin.connect(o.kafka, o.brokers).catch((e: unknown) => {
          admin = undefined;
          throw e;
        })).then((a) => a.topicOffsets(trigger.topic));
        const { partitions } = await readShareGroup(transport, trigger.consumerGroupId, trigger.topic, logs, reset);
        return backlogOf(partitions);
      },
      report: (partitions) => o.events.emit('queue.lag', { functionName: trigger.functionName, topic: trigger.topic, groupId: trigger.consumerGroupId, partitions }),
      logger: o.logger,
    });

  return {
    async start() {
      const settled = await settle();
      // Stopped meanwhile (a supervisor stopping a member that was still starting): its transport is closed; nothing more to start.
      if (stopped) return;
      // A cluster without share groups refuses the settings too: the member's start says what it needs, and this is moot.
      await member.start().catch(async (e: unknown) => {
        // Refused at start: nothing stops this member later, so its connections close here.
        await transport.close().catch(() => undefined);
        throw e;
      });
      if (settled.refused) warnSettingsRefused(o.logger, trigger, settled);
      if (stopped) return;
      lag = watchBacklog();
      o.logger.info(`queue mode: a member of share group ${trigger.consumerGroupId} (every poller takes records of every partition, each record acknowledged on its own)`);
    },
    async stop(deadlineAt) {
      stopped = true;
      // The backlog reader ends beside the stop, never ahead of it: a reading or an admin connect under way does not hold the group's leave past the deadline.
      const reader = (async () => {
        await lag?.stop();
        await (await admin?.catch(() => undefined))?.disconnect().catch(() => undefined);
      })();
      await o.runner.stop();
      await member.stop(deadlineAt);
      await transport.close().catch(() => undefined);
      await (deadlineAt === undefined ? reader : settledBy(reader, deadlineAt));
    },
    memberId: () => member.memberId(),
  };
}

interface Settled {
  reset: string;
  limit: number;
  /** Why the group's settings could not be set (no AlterConfigs on the group). */
  refused?: { error: number; message: string | null | undefined };
  /** What the group has instead, when it could be read. */
  kept?: { limit: number | undefined; startsAt: string | undefined };
  /** The retries capped to, below a lower delivery limit the group keeps. */
  capped?: number;
}

/** What the trigger's principal could not set, and what that means for where a new group starts and how often a record is delivered. */
function warnSettingsRefused(logger: Logger, trigger: TriggerSpec, s: Settled): void {
  const { reset, limit, refused, kept, capped } = s;
  const fix = "Grant AlterConfigs on the group to the trigger's principal, or set them with kafka-configs --entity-type groups";
  if (!kept) {
    logger.warn(
      `could not set the share group's share.auto.offset.reset to ${reset} (startingPosition ${trigger.startingPosition}) and share.delivery.count.limit to ${limit}, nor read them: ` +
        `the group starts where the cluster's setting says, and a cluster whose delivery limit is ${limit - 1} or less gives records up before they reach the on-failure destination. ${fix}`,
      refused,
    );
    return;
  }
  if (capped !== undefined) {
    logger.warn(
      `could not set the share group's share.delivery.count.limit to ${limit}, and it is ${kept.limit}: a record that keeps failing goes to the on-failure destination ` +
        `after ${capped + 1} deliveries instead of ${queueRetries(trigger.failure.maximumRetryAttempts) + 1}, so that it gets there before the broker gives it up. ${fix}`,
      refused,
    );
  }
  if (kept.startsAt !== undefined && kept.startsAt !== reset) {
    logger.warn(`could not set the share group's share.auto.offset.reset to ${reset} (startingPosition ${trigger.startingPosition}), and it is ${kept.startsAt}: a new group starts there. ${fix}`, refused);
  }
}

/** The group's delivery limit and reset as the cluster has them (its defaults when the group sets none); undefined when they cannot be read either. */
async function groupSettings(transport: ReturnType<typeof kafkajsShareTransport>, groupId: string): Promise<{ limit: number | undefined; startsAt: string | undefined } | undefined> {
  const read = await transport.send('any', describeGroupConfig(groupId, ['share.delivery.count.limit', 'share.auto.offset.reset'])).catch(() => undefined);
  if (!read || read.errorCode !== 0) return undefined;
  // A limit absent, null or not a number is not read: the caller warns that it could not be known.
  const raw = read.values['share.delivery.count.limit'];
  const limit = raw === null || raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isInteger(limit) || limit <= 0) return undefined;
  return { limit, startsAt: read.values['share.auto.offset.reset'] ?? undefined };
}

const ACK_NAMES: readonly QueueAckName[] = ['gap', 'accept', 'release', 'reject'];

/** Acknowledgement batches as the event's ranges: one per batch of one type, one per offset where a batch mixes types. */
function ackRanges(batches: readonly AckBatch[]): Array<{ from: number; until: number; type: QueueAckName }> {
  return batches.flatMap((b) => {
    const from = Number(b.firstOffset);
    if (b.types.length === 1) return [{ from, until: Number(b.lastOffset), type: ACK_NAMES[b.types[0]!]! }];
    return b.types.map((t, i) => ({ from: from + i, until: from + i, type: ACK_NAMES[t]! }));
  });
}
