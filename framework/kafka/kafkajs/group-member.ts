/**
 * One consumer-group member for one topic, built on kafkajs's runner but exposing only what
 * the poller needs: per-partition batches it can heartbeat from, commit exactly, and pause.
 * Offsets are never auto-committed; the poller commits after an invocation succeeded.
 *
 * Rebalance safety lives here. The poller heartbeats before every chunk (kafkajs sends one only
 * when due) and every heartbeatIntervalMs while a chunk runs, so a rebalance is learned within
 * one interval. The first heartbeat or commit that learns of it marks the whole member as
 * rebalancing: no batch starts another chunk, in-flight ones finish and commit (the
 * coordinator still accepts the current generation's commits while it waits for this member),
 * and only then is the rebalance handed back to kafkajs, which rejoins. Heartbeats go on
 * meanwhile: the coordinator counts them against the session even while it answers
 * REBALANCE_IN_PROGRESS, so a chunk longer than the session does not get the member expired. A commit for a
 * partition this member no longer owns is never sent (kafkajs does not check; nor does Kafka).
 *
 * kafkajs is told never to restart a crashed consumer itself (it would rejoin inside the same
 * object, and not at all after a non-retriable error): a crash is reported through `onCrash`,
 * no batch starts another chunk, and the trigger's supervisor (poller/supervisor.ts) replaces
 * the whole member once `stop()` has seen the in-flight batches out.
 */
import kafkajs, { type Consumer, type EachBatchPayload, type Kafka } from 'kafkajs';
import { evictMember } from './evict-member.ts';
import { newestOf } from '../log-end.ts';
import { PartitionOrder } from './partition-order.ts';
import { GroupState, isRebalance } from './group-state.ts';
import { toKafkaRecord } from './records.ts';
import { settledBy } from '../settled-by.ts';
import { hasKafkaErrorType } from './client.ts';
import type { CommitResult, GroupMember, MemberOptions, PartitionBatch } from '../member-port.ts';

/** kafkajs's member: the port's options, its client, and the member it replaces. */
export interface GroupMemberOptions extends MemberOptions {
  kafka: Kafka;
  /**
   * The member id of this trigger's previous member, stopped and finished: left for it before
   * joining, in case it could not leave itself (its broker was down).
   */
  replaces?: string;
}

/** Handed to kafkajs after the in-flight chunks, as a rebalance: it rejoins, finding the coordinator anew. */
function coordinatorLost(cause: Error): Error {
  // A KafkaJSError of a rebalancing type: the runner rejoins, and does not log it as a handler's error.
  // (kafkajs's errors are not named exports under plain Node ESM: reached through the default export.)
  const error = new kafkajs.KafkaJSError(`a commit failed (${cause.message}); rejoining the group, which finds its coordinator again`, { retriable: true });
  return Object.assign(error, { type: 'NOT_COORDINATOR_FOR_GROUP', cause });
}

/** kafkajs's error, or one it wrapped (its retrier's), says the principal is not allowed. */
const AUTHORIZATION_FAILED: ReadonlySet<string> = new Set(['GROUP_AUTHORIZATION_FAILED', 'TOPIC_AUTHORIZATION_FAILED']);
const isAuthorizationFailure = (e: unknown): boolean => hasKafkaErrorType(e, AUTHORIZATION_FAILED);

const METADATA_TOO_LARGE: ReadonlySet<string> = new Set(['OFFSET_METADATA_TOO_LARGE']);

/** How long the LeaveGroup the member sends itself (at a stop deadline, or when kafkajs's did not end) may take. */
const LEAVE_WITHIN_MS = 3_000;

/** Past one fetch's wait, what kafkajs's stop may still take once the last batch ended: a LeaveGroup's round trip, with room. */
const AFTER_BATCHES_MS = 5_000;

/** How soon new partitions of a topic are consumed. */
export const METADATA_MAX_AGE_MS = 30_000;

export function createGroupMember(o: GroupMemberOptions): GroupMember {
  const consumer: Consumer = o.kafka.consumer({
    groupId: o.groupId,
    sessionTimeout: o.sessionTimeoutMs,
    rebalanceTimeout: o.rebalanceTimeoutMs,
    heartbeatInterval: o.heartbeatIntervalMs,
    maxWaitTimeInMs: o.maxWaitTimeMs,
    minBytes: o.minBytes,
    maxBytesPerPartition: o.maxBytesPerPartition,
    allowAutoTopicCreation: false,
    // kafkajs learns of partitions added to the topic only from a metadata refresh (default
    // every 5 min); a rejoin then assigns them. Existing partitions keep their owner (the
    // round-robin assignment of an unchanged membership does not move them).
    metadataMaxAge: METADATA_MAX_AGE_MS,
    // kafkajs's own retries of a failing fetch loop stay; restarting after them is the supervisor's.
    retry: { retries: 5, restartOnFailure: async () => false },
  });
  const state = new GroupState(o.groupId, o.events);
  const order = new PartitionOrder();
  const resumeTimers = new Set<NodeJS.Timeout>();
  /** fetchFromLater's timers, by partition key; and the partitions whose batch runs now. */
  const refetches = new Map<string, NodeJS.Timeout>();
  const runningPartitions = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let crashed = false;
  let stopping = false;
  /** Left the group at a stop deadline with a batch still running: that batch commits nothing. */
  let leftBehind = false;
  // kafkajs throttles heartbeats only after a success; this bounds the attempts while a
  // rebalance answers every one with an error (one per interval for the member, not per chunk).
  let lastHeartbeatAttempt = 0;
  // When the coordinator last answered a heartbeat (or the join): past a session without one, it
  // has removed this member, whatever error the heartbeats met (a coordinator unreachable is not a
  // rebalance error), and another member may own its partitions: no chunk may start.
  let lastHeartbeatOk = Date.now();
  const crash = (error: Error) => {
    if (crashed) return;
    crashed = true;
    o.events.emit('group.crash', { groupId: o.groupId, error });
    o.onCrash(error);
  };
  // kafkajs runs one fetch loop per broker and fetches again only once every batch of the last
  // fetch was processed, so a batch in hand comes from its broker's latest fetch. Which broker is
  // not told: the oldest latest fetch is a time no batch in hand was fetched before. (A broker
  // whose last fetch is older than the poll interval has no batch in hand: the budget ends
  // every batch before that; its entry is left out, so a broker gone for good cannot stall it.)
  const lastFetchAt = new Map<number, number>();
  const fetchedAt = () => {
    const now = Date.now();
    const recent = [...lastFetchAt.values()].filter((t) => now - t < o.rebalanceTimeoutMs);
    return recent.length === 0 ? now : Math.min(...recent);
  };

  consumer.on(consumer.events.FETCH, ({ payload }) => {
    lastFetchAt.set(payload.nodeId, Date.now());
  });
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    state.joined(payload.memberId, payload.memberAssignment);
    lastHeartbeatOk = Date.now();
    const owned = new Set(Object.entries(payload.memberAssignment).flatMap(([t, ps]) => ps.map((p) => `${t}:${p}`)));
    for (const key of order.keys()) if (!owned.has(key)) order.forget(key);
    o.events.emit('group.join', {
      groupId: o.groupId,
      memberId: payload.memberId,
      isLeader: payload.isLeader,
      assignment: payload.memberAssignment,
      durationMs: payload.duration,
      ...(inFlight.size > 0 ? { batchesRunning: inFlight.size } : {}),
    });
  });
  consumer.on(consumer.events.HEARTBEAT, () => {
    lastHeartbeatOk = Date.now();
    o.events.emit('poller.heartbeat', { groupId: o.groupId, ok: true });
  });
  consumer.on(consumer.events.REBALANCING, ({ payload }) => {
    // kafkajs's own heartbeat (after a batch, or on an empty fetch) learned it first.
    state.rebalancing(new Error('kafkajs is rejoining the group'), 'kafkajs', state.generation);
    o.events.emit('group.rebalancing', { groupId: o.groupId, memberId: payload.memberId });
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => crash(payload.error));

  /**
   * Whether the partition's log really ends below `mark`: a fetch's high watermark (`fetched`) can
   * trail the last leader's for a moment after a leader change, so readLogEnd decides, and the
   * fetch's is believed only when it has no answer (a record invoked twice, never one skipped).
   */
  const logEndBelow = async (topic: string, partition: number, mark: number, fetched: number, newestBelow: number | undefined): Promise<boolean> =>
    !o.readLogEnd || (await o.readLogEnd(topic, partition, newestBelow).catch(() => fetched)) < mark;

  const eachBatch = (p: EachBatchPayload): Promise<void> => order.serialize(`${p.batch.topic}:${p.batch.partition}`, () => processBatch(p));

  const processBatch = async (p: EachBatchPayload): Promise<void> => {
    const { topic, partition } = p.batch;
    const key = `${topic}:${partition}`;
    const generation = state.generation;
    clearTimeout(refetches.get(key));
    refetches.delete(key);
    let messages = p.batch.messages;
    let done = order.doneBelow(key);
    let newLog = false;
    if (done !== undefined && Number(p.batch.highWatermark) < done) {
      const below = done;
      const newest = newestOf(messages.map((m) => ({ offset: Number(m.offset), timestamp: Number(m.timestamp) })), below);
      // Tracked as a batch, so a stop waits for it.
      const asking = logEndBelow(topic, partition, below, Number(p.batch.highWatermark), newest);
      const tracked = asking.then(() => undefined, () => undefined);
      inFlight.add(tracked);
      try {
        newLog = await asking;
      } finally {
        inFlight.delete(tracked);
      }
      // A rejoin while it asked: this batch's generation, its commit guard and position are no longer
      // the member's (resolveOffset would set the new generation's); that generation fetches anew.
      if (state.generation !== generation || crashed || stopping) return;
    }
    if (newLog && done !== undefined) {
      // The log ends below what this member committed: it is a new log (the topic was deleted and
      // created again, or an unclean leader election truncated it). Its records are not done.
      o.logger.warn('the partition\'s log ends below the offset this member committed: the topic was recreated or its log truncated; reading it as a new log', { topic, partition, committed: done, logEnd: Number(p.batch.highWatermark) });
      o.events.emit('poller.log_truncated', { groupId: o.groupId, topic, partition, committed: done, logEnd: Number(p.batch.highWatermark) });
      order.forget(key);
      done = undefined;
    }
    if (done !== undefined && messages.length > 0 && Number(messages[0]!.offset) < done) {
      messages = messages.filter((m) => Number(m.offset) >= done);
      // kafkajs fetches on from here, not from the offset it had resolved before.
      p.resolveOffset(String(done - 1));
      o.logger.debug('fetched again records this member had committed past: skipped', { topic, partition, from: p.batch.firstOffset(), committed: done });
      if (messages.length === 0) return;
    }
    const batch: PartitionBatch = {
      topic,
      partition,
      records: messages.map((m) => toKafkaRecord(topic, partition, m)),
      highWatermark: Number(p.batch.highWatermark),
      fetchedAt: fetchedAt(),
      heartbeat: async () => {
        if (crashed) return;
        if (state.rebalance && Date.now() - lastHeartbeatAttempt < o.heartbeatIntervalMs) return;
        lastHeartbeatAttempt = Date.now();
        try {
          await p.heartbeat(); // sent only when due; HEARTBEAT below counts what was sent
        } catch (e) {
          o.events.emit('poller.heartbeat', { groupId: o.groupId, ok: false });
          if (isRebalance(e)) return state.rebalancing(e as Error, `heartbeat during ${topic}-${partition}`, generation);
          const silentMs = Date.now() - lastHeartbeatOk;
          if (silentMs <= o.sessionTimeoutMs) throw e;
          const gone = new kafkajs.KafkaJSError(`no heartbeat answered for ${silentMs} ms, longer than the session (${o.sessionTimeoutMs} ms): the coordinator has removed this member (last error: ${(e as Error).message})`, { retriable: true });
          state.rebalancing(Object.assign(gone, { type: 'UNKNOWN_MEMBER_ID', cause: e }), `heartbeat during ${topic}-${partition}`, generation);
        }
      },
      joinId: `${state.memberId}/${generation}`,
      commit: async (nextOffset, withMetadata) => {
        if (leftBehind || !state.owns(topic, partition, generation)) return { ok: false, reason: 'not-owned' };
        try {
          if (!withMetadata) p.resolveOffset(String(nextOffset - 1));
          const metadata = withMetadata ? { metadata: withMetadata.metadata } : {};
          await p.commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: String(nextOffset), ...metadata }] }] });
          order.committed(key, nextOffset);
          return { ok: true };
        } catch (e) {
          if (withMetadata && hasKafkaErrorType(e, METADATA_TOO_LARGE)) return { ok: false, reason: 'metadata-too-large', error: e as Error };
          // An authorization refused (an ACL change) cannot be mended by rejoining: it stops the
          // member, since kafkajs would fetch on past the refused offset, invoking records it can
          // never commit; the supervisor starts a new member from the last commit, and gives up on
          // the trigger (exiting, naming it) if the refusals go on. Anything else (the coordinator
          // gone or not answering, kafkajs's retries run out) rejoins, which finds the coordinator
          // again, instead of processing more records whose commits would fail too.
          if (isAuthorizationFailure(e)) crash(new Error(`the coordinator refused the commit of ${topic}-${partition}: ${(e as Error).message}`, { cause: e }));
          else state.rebalancing(isRebalance(e) ? (e as Error) : coordinatorLost(e as Error), `commit of ${topic}-${partition}`, generation);
          return { ok: false, reason: 'refused', error: e as Error };
        }
      },
      // Not once the member rejoined: that generation fetches from the group's commit, and a position
      // an older batch set would make it fetch past records that state built anew owes (a loss).
      fetchFrom: (offset) => {
        if (state.generation === generation) p.resolveOffset(String(offset - 1));
      },
      isActive: () => !crashed && !state.rebalance && state.generation === generation && p.isRunning() && !p.isStale(),
      pauseFor: (ms) => {
        const resume = p.pause();
        const timer = setTimeout(() => {
          resumeTimers.delete(timer);
          resume();
        }, ms);
        resumeTimers.add(timer);
      },
      fetchFromLater: (offset, ms) => {
        clearTimeout(refetches.get(key));
        refetches.set(key, setTimeout(() => {
          refetches.delete(key);
          // Only in the generation that asked, with no rebalance under way (a later one fetches from the
          // group's commit, which another member may have moved), and not while a batch of it runs
          // (that batch says where to fetch next).
          if (crashed || stopping || runningPartitions.has(key) || state.generation !== generation || state.rebalance || !state.owns(topic, partition, generation)) return;
          // autoCommit is off: kafkajs's seek commits nothing, and drops what it fetched of the partition before it.
          consumer.seek({ topic, partition, offset: String(offset) });
        }, ms));
      },
    };
    const work = o.onBatch(batch);
    inFlight.add(work);
    runningPartitions.add(key);
    try {
      await work;
    } finally {
      inFlight.delete(work);
      runningPartitions.delete(key);
    }
    if (!crashed) o.onProgress?.();
    // Hand the rebalance back to kafkajs only now, after in-flight work was committed; not once
    // the member is stopping: a rejoin on the way out waits for every other member's chunks (the
    // coordinator holds the JoinGroup until all rejoined). kafkajs's runner, patched, does not
    // rejoin once stopping either (its own heartbeat after a batch meets the rebalance too).
    if (state.rebalance && !stopping) throw state.rebalance;
  };

  /** Resolves once no batch of this member runs (none starts once kafkajs is stopping). */
  const batchesEnded = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  /** LeaveGroup for this member, sent by us: kafkajs's own could not be waited for. */
  const leave = async (): Promise<void> => {
    if (state.memberId && !crashed) await evictMember(o.kafka, o.groupId, state.memberId, LEAVE_WITHIN_MS, o.logger);
  };

  return {
    async start() {
      await consumer.connect();
      if (o.replaces) {
        const outcome = await evictMember(o.kafka, o.groupId, o.replaces, o.sessionTimeoutMs, o.logger);
        if (outcome === 'evicted') o.logger.info('left the group for the previous member, which could not leave itself', { groupId: o.groupId, memberId: o.replaces });
      }
      // A partition the group never committed starts at its first record: the trigger's starting
      // position was committed before the first member joined (poller/starting-position.ts), so
      // this is a partition added since, or an offset out of range (deleted by retention).
      await consumer.subscribe({ topics: [o.topic], fromBeginning: o.fromBeginning });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: o.concurrency,
        eachBatch,
      });
    },
    async stop(deadlineAt) {
      stopping = true;
      for (const t of resumeTimers) clearTimeout(t);
      resumeTimers.clear();
      for (const t of refetches.values()) clearTimeout(t);
      refetches.clear();
      // kafkajs stops fetching, waits for its batches, sends LeaveGroup and disconnects. After a
      // crash it has already left; a batch it had handed over may still be running.
      const disconnected = consumer.disconnect();
      const stopped = disconnected.then(batchesEnded);
      void stopped.catch(() => undefined); // awaited below, unless it is left behind
      // The batches end by themselves (a chunk within the function's timeout), unless the deadline comes first.
      if (deadlineAt !== undefined && !(await settledBy(batchesEnded(), deadlineAt))) {
        leftBehind = true;
        o.logger.warn('a chunk is still running at the stop deadline: leaving the group without it; its records are not committed, and go to the next owner', { groupId: o.groupId, memberId: state.memberId });
        return leave();
      }
      await batchesEnded();
      // What kafkajs still does after the batches waits on the coordinator (a fetch's wait, the
      // LeaveGroup; a rejoin from inside a fetch, which the coordinator may hold for the whole
      // rebalance timeout): bounded, so a stop never hangs on a coordinator that is down or busy.
      const withinMs = o.maxWaitTimeMs + AFTER_BATCHES_MS;
      if (await settledBy(stopped, Math.min(Date.now() + withinMs, deadlineAt ?? Infinity))) return void (await stopped);
      o.logger.warn(`kafkajs had not left the group ${withinMs} ms after the last batch ended, or by the stop deadline (its coordinator does not answer, or holds a rejoin): leaving without waiting for it`, { groupId: o.groupId, memberId: state.memberId });
      await leave();
    },
    memberId: () => state.memberId || undefined,
  };
}
