/**
 * A consumer-group member on librdkafka (engine: librdkafka, issue 29), behind the same port as
 * the kafkajs member (group-member.ts): per-partition batches the poller can commit exactly and
 * hold. Heartbeats are librdkafka's own, from its threads; the group protocol is KIP-848's
 * `consumer` (or `classic` with the cooperative-sticky assignor), so a rebalance revokes only the
 * partitions that move: those start no new chunk, their in-flight batches finish and commit, and
 * only then is the revocation handed back (incrementalUnassign); the other partitions never stop.
 *
 * One loop polls (consume) and keeps librdkafka's max.poll.interval.ms satisfied whatever the
 * handlers do. A partition keeps fetching while its batch runs, into a buffer of at most
 * maxBytesPerPartition (10 MB over all partitions; paused beyond it), so its next batch starts
 * the moment this one ends, and goes on from the buffer while librdkafka fetches nothing: a held
 * revocation pauses the fetching of every partition until the revoked partitions' batches end
 * (measured: without it, partitions that kept their owner stopped up to 2.9 s when members went
 * 1 -> 3 under 5 s chunks; with it, 0 s; bench/scenarios/rebalance.ts). After a batch that did
 * not reach its end, the buffer is dropped and the partition fetches on from the last offset the
 * poller committed in it (a retry, the poll budget, a rebalance leave the rest), as kafkajs does
 * from its resolved offset. That seek is done between polls, never while one runs: librdkafka
 * drops what it fetched before a seek only from polls that begin after it, so until the seek is
 * done every record of the partition a poll returns is dropped (a poll under way returned the
 * partition's read-ahead past the seek, and batches began beyond records never taken in).
 * With more partitions than batches allowed at once, the one that waited longest starts first.
 *
 * A commit resolves on the coordinator's answer, not when librdkafka queued it (commits.ts), so a
 * batch's commit, and with it a held revocation, waits for what the coordinator said; the loop
 * polls on while a stopping member's batches finish, since the answers come inside polls.
 */
import type { KafkaConsumer, LibrdKafkaError, Message, TopicPartition } from '@confluentinc/kafka-javascript';
import { INPUT_BOUNDS } from '../../config/input-bounds.ts';
import { ConfigError } from '../../errors.ts';
import type { KafkaRecord } from '../../event/record.ts';
import type { CommitResult, GroupMember, MemberOptions, PartitionBatch } from '../member-port.ts';
import { newestOf } from '../log-end.ts';
import { headersOverBound, readHeaderPairs, withoutHeaders } from '../record-headers.ts';
import type { KafkaSecurity } from '../security.ts';
import { settledBy } from '../settled-by.ts';
import { loadRdkafka, rdkafkaPatch, type RdkafkaModule } from './client.ts';
import { Commits, ERR_METADATA_TOO_LARGE } from './commits.ts';
import { CONNECT_WITHIN_MS, rdkafkaConnection } from './connection.ts';
import { arrived, bufferCost, letGoRecord, unreadableBatch, type NativeMarks } from './arrived.ts';
import { FETCH_MAX_BYTES, RECEIVE_MAX_BYTES } from './patched.ts';
import { headerPairsOf } from './headers.ts';
import { ERR_FATAL, fatalError } from './fatal.ts';

/** Methods the binding has and its typings leave out. */
type Consumer = KafkaConsumer & {
  setDefaultIsTimeoutOnlyForFirstMessage(only: boolean): void;
  rebalanceProtocol(): 'COOPERATIVE' | 'EAGER' | 'NONE';
  incrementalAssign(parts: TopicPartition[]): void;
  incrementalUnassign(parts: TopicPartition[]): void;
  commitCb(offsets: Array<TopicPartition & { offset: number; metadata?: string | null }>, cb: (err: LibrdKafkaError | null) => void): void;
};

const ERR_ASSIGN = -175;
const ERR_REVOKE = -174;
/** Messages one poll returns at most. */
const POLL_MAX = 1_000;
/** How long start() waits for the group's first assignment. */
const JOIN_WITHIN_MS = 60_000;
/** TOPIC_AUTHORIZATION_FAILED and GROUP_AUTHORIZATION_FAILED, as librdkafka numbers them (the broker's codes). */
const AUTHORIZATION_FAILED: ReadonlySet<number> = new Set([29, 30]);
/** How long a fatal poll waits for librdkafka's log line that says why. */
const FATAL_LINE_WITHIN_MS = 1_000;
/** Seeks of one partition that may fail in a row before the member stops. */
const SEEK_ATTEMPTS = 3;
/** How long a poll waits for a first record. */
const POLL_WAIT_MS = 100;
/** Records fetched ahead of the running batches, all partitions together: kafkajs's one fetch (FETCH_MAX_BYTES). */
const PREFETCH_BYTES = 10 * 1024 * 1024;
/** Each partition may fetch at least this far ahead, however many the member owns. */
const PREFETCH_MIN_BYTES = 64 * 1024;

export interface RdkafkaMemberOptions extends MemberOptions {
  brokers: string[];
  clientId: string;
  groupProtocol: 'consumer' | 'classic';
  groupInstanceId?: string;
  /** The trigger's path, named when the client library is missing or the brokers refuse the member. */
  askedBy: string;
  /** SASL / TLS / MSK IAM, as the kafkajs engine connects (framework/kafka/security.ts); plaintext without. */
  security?: KafkaSecurity;
}

interface Slot {
  partition: number;
  /** Counts this partition's assignments to the member: a batch of an older one owns nothing. */
  epoch: number;
  /** The previous assignment's batch still runs: this one starts nothing before it ends. */
  afterPrevious?: boolean;
  revoked: boolean;
  /** Records fetched and not yet in a batch, in offset order, and their size. */
  buffer: Message[];
  bufferedBytes: number;
  /** Paused by this member because its buffer is full. */
  paused: boolean;
  running?: Promise<void>;
  /**
   * Where the partition fetches on after the running batch, as kafkajs's resolved offset: where the
   * batch began, moved by a commit (without metadata) or by fetchFrom.
   */
  position: number;
  retry?: NodeJS.Timeout;
  /** fetchFromLater's timer: the partition fetches from there unless a batch begins first. */
  refetch?: NodeJS.Timeout;
  /**
   * Where the partition must fetch from, asked and not yet done: the poll loop seeks between
   * polls, and until then every record of this partition a poll returns is from before the seek.
   */
  seekTo?: number;
  /** Seeks of `seekTo` that failed in a row. */
  seekFailures: number;
  /** When the partition was last seeked: records after it were fetched later still. */
  seekAt?: number;
  /** When its last batch started: dispatch serves the partition that waited longest first. */
  startedAt: number;
  /** The highest offset this assignment committed: records below it succeeded and are never run again here. */
  committedNext?: number;
  /**
   * The last offset of a record batch librdkafka could not read, handed over once: it reports the
   * batch again at each fetch until the partition is moved past it (after its batch ran).
   */
  unreadableAt?: number;
}

/** Said once a process: the binding runs without Sluice's bounds. */
let unpatchedSaid = false;

let epochs = 0;

export function createRdkafkaMember(o: RdkafkaMemberOptions): GroupMember {
  const { KafkaConsumer } = loadRdkafka(o.askedBy);
  const patch = rdkafkaPatch();
  if (!patch.patched && !unpatchedSaid) {
    unpatchedSaid = true;
    o.logger.warn(`engine librdkafka runs without Sluice's bounds: ${patch.why}`, { groupId: o.groupId });
  }
  const slots = new Map<number, Slot>();
  const tp = (partition: number): TopicPartition => ({ topic: o.topic, partition });
  let running = 0;
  let stopping = false;
  let crashed = false;
  let leftBehind = false;
  /** Resolves when a stop passes its deadline: a revocation waiting for batches stops waiting then. */
  let passDeadline!: () => void;
  const pastDeadline = new Promise<void>((resolve) => (passDeadline = resolve));
  /**
   * The loop polls until stop() ends it, after the batches: librdkafka answers commits (and hands
   * over revocations) only inside a poll, so a stopping or crashed member's last commits need it.
   */
  let polling = true;
  let loop: Promise<void> | undefined;
  const memberId = `${o.clientId}-${process.pid}-${Date.now().toString(36)}`;
  /** Resolves at the first assignment (possibly empty), as kafkajs's run() does at its first join. */
  let joined!: () => void;
  const firstJoin = new Promise<void>((resolve) => (joined = resolve));
  const connection = rdkafkaConnection(o);
  const { redact } = connection;

  const consumer = newConsumer(KafkaConsumer, {
      ...connection.config,
      'bootstrap.servers': o.brokers.join(','),
      'client.id': o.clientId,
      'group.id': o.groupId,
      'group.protocol': o.groupProtocol,
      ...(o.groupProtocol === 'classic'
        ? { 'session.timeout.ms': o.sessionTimeoutMs, 'heartbeat.interval.ms': o.heartbeatIntervalMs, 'partition.assignment.strategy': 'cooperative-sticky' }
        : {}),
      ...(o.groupInstanceId ? { 'group.instance.id': o.groupInstanceId } : {}),
      'max.poll.interval.ms': o.rebalanceTimeoutMs,
      'enable.auto.commit': false,
      'enable.auto.offset.store': false,
      'fetch.wait.max.ms': o.maxWaitTimeMs,
      'fetch.min.bytes': o.minBytes,
      'max.partition.fetch.bytes': o.maxBytesPerPartition,
      // With Sluice's patch (which bounds what a batch inflates to itself): a response's records
      // within the batch bound, and any batch the broker serves received, however large, for the
      // binding to let go of its records past the bounds. Not without the patch, whose binding drops
      // a partition's errors: librdkafka's own limits then stand.
      ...(patch.patched ? { 'fetch.max.bytes': Math.max(FETCH_MAX_BYTES, o.maxBytesPerPartition), 'receive.message.max.bytes': RECEIVE_MAX_BYTES } : {}),
      // The default (1 s) stalls the fetcher between fetches of a busy partition.
      'fetch.queue.backoff.ms': 10,
      rebalance_cb: (err: LibrdKafkaError, assignment: TopicPartition[]) => void rebalance(err, assignment),
      offset_commit_cb: (err: LibrdKafkaError | undefined, committed: Array<TopicPartition & { offset?: number }>) => commits.answered(err, committed),
    },
    { 'auto.offset.reset': o.fromBeginning ? 'earliest' : 'latest' },
    (message) => `${o.askedBy}: librdkafka refused the connection's configuration: ${redact(message)}`,
  );
  const commits = new Commits(consumer, o.topic, (message, fields) => o.logger.debug(message, { groupId: o.groupId, ...fields }));
  /** Set while start() runs: a refusal of the brokers ends it (librdkafka would retry for ever). */
  let refused: ((error: Error) => void) | undefined;
  connection.watch(consumer, () => refused);

  const crash = (error: Error) => {
    if (crashed) return;
    crashed = true;
    joined(); // nothing waits for a first assignment now
    // While starting, the start fails with it (the supervisor retries a restart's, and a first start's is the service's).
    if (refused) return refused(error);
    o.events.emit('group.crash', { groupId: o.groupId, error });
    o.onCrash(error);
  };
  const assignment = () => ({ [o.topic]: [...slots.keys()].sort((a, b) => a - b) });
  const announce = (durationMs: number) =>
    o.events.emit('group.join', { groupId: o.groupId, memberId, isLeader: false, assignment: assignment(), durationMs, ...(running > 0 ? { batchesRunning: running } : {}) });

  /** KIP-848 and cooperative-sticky both hand over partitions incrementally. */
  async function rebalance(err: LibrdKafkaError, parts: TopicPartition[]): Promise<void> {
    const started = Date.now();
    try {
      if (err.code === ERR_ASSIGN) {
        for (const p of parts) {
          const slot: Slot = { partition: p.partition, epoch: ++epochs, revoked: false, buffer: [], bufferedBytes: 0, paused: false, position: -1, seekFailures: 0, startedAt: 0 };
          // Assigned again while a batch of its previous assignment still runs here: that batch owns
          // nothing now (its commits are refused as not owned), and the new one starts after it, so
          // the member never runs a partition's records twice at once.
          const before = slots.get(p.partition);
          if (before?.running) {
            before.revoked = true;
            slot.afterPrevious = true;
            o.logger.warn('partition assigned again while a batch of its previous assignment runs: it starts after that batch', { groupId: o.groupId, partition: p.partition });
            void before.running.finally(() => {
              slot.afterPrevious = false;
              dispatch(Date.now());
            });
          }
          slots.set(p.partition, slot);
        }
        o.logger.debug('librdkafka assigned partitions', { groupId: o.groupId, partitions: parts.map((p) => p.partition) });
        consumer.incrementalAssign(parts);
        // librdkafka keeps a partition's pause across its revocation: one revoked while its batch
        // ran (paused, never resumed) and later assigned here again would otherwise never fetch.
        if (parts.length) consumer.resume(parts);
        announce(Date.now() - started);
        joined();
      } else if (err.code === ERR_REVOKE) {
        const gone = parts.map((p) => slots.get(p.partition)).filter((s): s is Slot => s !== undefined);
        for (const s of gone) s.revoked = true;
        o.logger.debug('librdkafka revoked partitions', { groupId: o.groupId, partitions: parts.map((p) => p.partition), running: gone.filter((s) => s.running).length });
        // The close's revocation (a stop) is the member leaving, not the group rebalancing: nothing to announce.
        const leaving = stopping;
        if (!leaving) o.events.emit('group.rebalance_detected', { groupId: o.groupId, memberId, where: 'librdkafka', reason: `partitions ${parts.map((p) => p.partition).join(',')} revoked`, partitions: parts.map((p) => p.partition) });
        // In-flight batches of the revoked partitions finish and commit first (librdkafka fetches
        // nothing meanwhile, for any partition: the stall is the longest such batch); then the
        // revocation is acknowledged. Not past a stop's deadline (even when the wait began before it):
        // the close that revokes here would wait for the batches the stop left behind, until the
        // process is killed without leaving.
        await Promise.race([Promise.allSettled(gone.map((s) => s.running)), pastDeadline]);
        for (const s of gone) {
          clearTimeout(s.retry);
          clearTimeout(s.refetch);
          // Only the slot this revocation took: the partition may have been assigned again since.
          if (slots.get(s.partition) === s) slots.delete(s.partition);
        }
        // Closing (rebalanceProtocol NONE) revokes everything with the eager call.
        if (consumer.rebalanceProtocol() === 'COOPERATIVE') consumer.incrementalUnassign(parts);
        else consumer.unassign();
        if (!leaving) {
          o.events.emit('group.rebalanced', { groupId: o.groupId, memberId, durationMs: Date.now() - started, assignment: assignment(), revoked: parts.map((p) => p.partition) });
          announce(Date.now() - started);
        }
      }
    } catch (e) {
      if (!stopping && consumer.isConnected()) crash(new Error(`the rebalance of ${o.groupId} failed: ${(e as Error).message}`, { cause: e }));
    }
  }

  /** A partition's share of the prefetch: up to maxBytesPerPartition, less when the member owns many. */
  const prefetchBytes = () => Math.min(o.maxBytesPerPartition, Math.max(PREFETCH_MIN_BYTES, Math.floor(PREFETCH_BYTES / Math.max(1, slots.size))));

  const poll = (): Promise<Message[]> =>
    new Promise((resolve, reject) => consumer.consume(POLL_MAX, (err, messages) => (err ? reject(err) : resolve(messages))));

  async function pollLoop(): Promise<void> {
    // A poll returns once a first record came (or after POLL_WAIT_MS): by default it waits that long
    // for each further record, 25 s for a poll of 500 under a trickle. Polls keep coming while
    // handlers run: librdkafka serves rebalances and commits' answers inside them.
    consumer.setDefaultConsumeTimeout(POLL_WAIT_MS);
    consumer.setDefaultIsTimeoutOnlyForFirstMessage(true);
    while (polling) {
      const fetchedAt = Date.now();
      let messages: Message[];
      try {
        messages = await poll();
      } catch (e) {
        if (!polling) return;
        if ((e as LibrdKafkaError).code === ERR_FATAL && !crashed) {
          // The poll says only "Fatal error"; librdkafka's log line with the why can come just after it.
          for (let waited = 0; connection.fatal() === undefined && waited < FATAL_LINE_WITHIN_MS; waited += 50) await new Promise((r) => setTimeout(r, 50));
          crash(fatalError({ askedBy: o.askedBy, groupId: o.groupId, ...(o.groupInstanceId ? { groupInstanceId: o.groupInstanceId } : {}) }, connection.fatal()));
        } else if (AUTHORIZATION_FAILED.has((e as LibrdKafkaError).code) && !stopping && !crashed) {
          // Polling again cannot mend an ACL: the member stops, as kafkajs's does, and the trigger restarts it with backoff.
          crash(new Error(`the brokers refused ${o.groupId} a fetch of ${o.topic}: ${(e as Error).message}`, { cause: e }));
        } else if (!stopping && !crashed) o.logger.warn('poll failed; polling again', { groupId: o.groupId, error: e });
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      // Stopping or crashed: polls only serve the answers; what they fetch is nobody's now.
      if (stopping || crashed) continue;
      for (const m of messages) {
        const slot = slots.get(m.partition);
        // A seek not done yet: this poll began before it, so its records of the partition are from before it.
        if (!slot || slot.revoked || slot.seekTo !== undefined) continue;
        if (unreadableBatch(m)) {
          // Handed over again at each fetch until the partition moves past it: once is enough.
          if (slot.unreadableAt === m.offset) continue;
          slot.unreadableAt = m.offset;
        }
        slot.buffer.push(arrived(m));
        slot.bufferedBytes += bufferCost(m);
        if (!slot.paused && slot.bufferedBytes >= prefetchBytes()) {
          slot.paused = true;
          consumer.pause([tp(m.partition)]);
        }
      }
      // No poll runs now: a seek done here is the barrier, every later poll returns records from after it.
      await seekAsked();
      dispatch(fetchedAt);
    }
  }

  /**
   * Starts a batch for each partition with records waiting, up to `concurrency` partitions at once,
   * the one whose last batch started longest ago first: with fewer batches allowed than partitions
   * owned, every partition gets its turn (scanning in partition order starved the last ones).
   */
  function dispatch(fetchedAt: number): void {
    if (stopping || crashed) return;
    const ready = [...slots.values()]
      .filter((s) => !s.running && !s.afterPrevious && !s.revoked && !s.retry && s.seekTo === undefined && s.buffer.length > 0)
      .sort((a, b) => a.startedAt - b.startedAt);
    for (const slot of ready) {
      if (running >= o.concurrency) return;
      const { partition } = slot;
      const { messages, logEndBelow } = notCommitted(partition, slot, slot.buffer.splice(0));
      slot.bufferedBytes = 0;
      // The buffer is empty now, whatever was dropped: a partition paused for a full buffer fetches on.
      resume(partition, slot);
      if (messages.length === 0) continue;
      running++;
      clearTimeout(slot.refetch);
      slot.startedAt = Date.now();
      const run = logEndBelow === undefined
        ? runBatch(partition, slot, messages, fetchedAt)
        : confirmedNew(partition, slot, messages, logEndBelow).then((kept) => (kept.length ? runBatch(partition, slot, kept, fetchedAt) : undefined));
      slot.running = run
        // Not the handler's failure (that is a result): a fault of the poller's own. The member stops
        // with it, as kafkajs's consumer does, and the trigger's supervisor starts a new one.
        .catch((e: unknown) => crash(e instanceof Error ? e : new Error(String(e))))
        .finally(() => {
          running--;
          slot.running = undefined;
          if (!stopping && !crashed) o.onProgress?.();
          dispatch(Date.now());
        });
    }
  }

  /**
   * Drops records this assignment already committed past, as kafkajs's member does (partition-order.ts):
   * a fetch from before a seek can still deliver them (the fault tier saw one run again after its
   * commit). Only work that succeeded and was committed is skipped; a log that ends below the commit
   * (the topic deleted and created again) is a new log, and nothing of it is skipped.
   */
  function notCommitted(partition: number, slot: Slot, messages: Message[]): { messages: Message[]; logEndBelow?: number } {
    const next = slot.committedNext;
    // The usual batch has nothing below the commit: no need to ask librdkafka for the log end.
    if (next === undefined || !messages.some((m) => m.offset < next)) return { messages };
    // Below the commit by librdkafka's last fetch, or no log end known (-1): confirmedNew decides before the batch runs.
    if (highWatermark(partition, -1) < next) return { messages, logEndBelow: next };
    return { messages: dropCommitted(partition, messages, next) };
  }

  function dropCommitted(partition: number, messages: Message[], next: number): Message[] {
    const fresh = messages.filter((m) => m.offset >= next);
    if (fresh.length < messages.length) o.logger.debug('dropped records this member already committed past', { groupId: o.groupId, partition, committed: next, dropped: messages.length - fresh.length });
    return fresh;
  }

  /**
   * The log end librdkafka last fetched is below this member's commit `next`, or it knows none: a new
   * log (every record kept) only if readLogEnd says so (kafka/log-end.ts: records newer than any handed
   * on, or ListOffsets, since a new leader's high watermark can trail the last one's for a moment after
   * a leader change and ListOffsets's never does); the fetch's believed when it has no answer.
   */
  async function confirmedNew(partition: number, slot: Slot, messages: Message[], next: number): Promise<Message[]> {
    const fetched = highWatermark(partition, next);
    const newest = newestOf(messages.map((m) => ({ offset: m.offset, timestamp: m.timestamp ?? -1 })), next);
    const end = o.readLogEnd ? await o.readLogEnd(o.topic, partition, newest).catch(() => fetched) : fetched;
    if (end >= next) return dropCommitted(partition, messages, next);
    if (slot.committedNext === next) slot.committedNext = undefined;
    return messages;
  }

  async function runBatch(partition: number, slot: Slot, messages: Message[], fetchedAt: number): Promise<void> {
    const first = messages[0]!.offset;
    const end = messages[messages.length - 1]!.offset + 1;
    slot.position = first;
    const batch: PartitionBatch = {
      topic: o.topic,
      partition,
      records: messages.map((m) => toRecord(o.topic, partition, m)),
      highWatermark: highWatermark(partition, end),
      fetchedAt: Math.max(fetchedAt, slot.seekAt ?? 0),
      joinId: `${memberId}/${slot.epoch}`,
      heartbeat: async () => undefined, // librdkafka heartbeats from its own thread
      commit: (next, withMetadata) => commit(partition, slot, next, withMetadata?.metadata),
      fetchFrom: (offset) => void (slot.position = offset),
      fetchFromLater: (offset, ms) => {
        clearTimeout(slot.refetch);
        slot.refetch = setTimeout(() => {
          slot.refetch = undefined;
          // Not for a partition gone or a batch of it under way (that batch says where to fetch next).
          if (stopping || crashed || slot.revoked || slot.running || slots.get(partition) !== slot) return;
          // What it buffered lies past the held work.
          seekLater(partition, slot, offset);
        }, ms);
      },
      isActive: () => !crashed && !stopping && !slot.revoked && slots.get(partition) === slot,
      pauseFor: (ms) => {
        clearTimeout(slot.retry);
        slot.retry = setTimeout(() => {
          slot.retry = undefined;
          if (slots.get(partition) === slot) dispatch(Date.now());
        }, ms);
      },
    };
    try {
      await o.onBatch(batch);
    } finally {
      // What the batch left is fetched again: from its last commit, where it began, or where
      // fetchFrom said; what was fetched beyond the batch meanwhile goes (it follows the gap).
      if (slot.position !== end && slots.get(partition) === slot) seekLater(partition, slot, slot.position);
      // An unreadable batch ends it: librdkafka fetches on from that batch's start until moved past it.
      else if (unreadableBatch(messages[messages.length - 1]!) && slots.get(partition) === slot) seekLater(partition, slot, end);
    }
  }

  /** Drops what the partition buffered and asks the poll loop to seek it to `offset` between polls. */
  function seekLater(partition: number, slot: Slot, offset: number): void {
    // Back to an unreadable batch: it is to be handed over again.
    if (slot.unreadableAt !== undefined && offset <= slot.unreadableAt) slot.unreadableAt = undefined;
    slot.buffer.length = 0;
    slot.bufferedBytes = 0;
    slot.seekTo = offset;
    if (!slot.revoked) resume(partition, slot);
  }

  function resume(partition: number, slot: Slot): void {
    if (!slot.paused) return;
    slot.paused = false;
    consumer.resume([tp(partition)]);
  }

  async function commit(partition: number, slot: Slot, next: number, metadata: string | null | undefined): Promise<CommitResult> {
    const owned = () => !leftBehind && slots.get(partition) === slot;
    if (!owned()) return { ok: false, reason: 'not-owned' };
    const err = await commits.commit(partition, next, metadata, owned);
    if (!err) {
      if (metadata === undefined) slot.position = next;
      slot.committedNext = Math.max(next, slot.committedNext ?? next);
      return { ok: true };
    }
    const error = Object.assign(new Error(redact(err.message)), { code: err.code });
    // An authorization refused (an ACL change) is not mended by polling on: the member stops with
    // it, as on kafkajs (group-member.ts), instead of holding its partitions without a commit.
    if (AUTHORIZATION_FAILED.has(err.code)) crash(new Error(`the coordinator refused the commit of ${o.topic}-${partition}: ${error.message}`, { cause: error }));
    return { ok: false, reason: err.code === ERR_METADATA_TOO_LARGE && metadata !== undefined ? 'metadata-too-large' : 'refused', error };
  }

  /**
   * Does the seeks batches asked for, between polls: once librdkafka took a seek, no later poll
   * returns a record of the partition fetched before it. A seek that fails is asked again after the
   * next poll (whose records of the partition are dropped); after SEEK_ATTEMPTS the member stops,
   * and its successor fetches from the group's commit: fetching on from where it was would skip
   * the records the batch left.
   */
  async function seekAsked(): Promise<void> {
    for (const slot of slots.values()) {
      const offset = slot.seekTo;
      if (offset === undefined || slot.revoked || slots.get(slot.partition) !== slot) continue;
      const err = await new Promise<LibrdKafkaError | null>((resolve) => consumer.seek({ topic: o.topic, partition: slot.partition, offset }, 0, (e) => resolve(e ?? null)));
      // The batch's records before the seek went with the buffer; none from after it were let in.
      slot.buffer.length = 0;
      slot.bufferedBytes = 0;
      if (!err) {
        slot.seekTo = undefined;
        slot.seekFailures = 0;
        slot.seekAt = Date.now();
        continue;
      }
      slot.seekFailures++;
      if (slot.seekFailures < SEEK_ATTEMPTS) o.logger.warn('seek failed; asking again', { groupId: o.groupId, partition: slot.partition, offset, attempt: slot.seekFailures, error: redact(err.message) });
      else crash(new Error(`librdkafka could not seek ${o.topic}-${slot.partition} to offset ${offset} (${SEEK_ATTEMPTS} tries, the last: ${redact(err.message)}): the member stops, and fetches from the group's commit when it starts again`, { cause: err }));
    }
  }

  let leaving: Promise<void> | undefined;
  /** Disconnects once, whether a failed start or stop() asks first. */
  const leave = () =>
    (leaving ??= new Promise<void>((resolve) => consumer.disconnect(() => resolve())).then(() => {
      // Commits left behind at a stop deadline: nothing answers them once the member is gone.
      commits.abandon();
    }));

  /** Connects, subscribes and waits for the first assignment (polling on past JOIN_WITHIN_MS). */
  async function join(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      consumer.once('ready', () => resolve());
      consumer.connect({ timeout: CONNECT_WITHIN_MS }, (err) => err && reject(Object.assign(new Error(redact(err.message)), { code: err.code })));
    });
    consumer.on('event.error', (e) => {
      const error = Object.assign(new Error(redact(e.message)), { code: e.code });
      if ((e as LibrdKafkaError).isFatal) crash(error);
      else o.logger.debug('librdkafka reported an error it retries', { groupId: o.groupId, error });
    });
    consumer.subscribe([o.topic]);
    loop = pollLoop().catch((e: unknown) => crash(e as Error));
    if (!(await settledBy(firstJoin, Date.now() + JOIN_WITHIN_MS)) && !stopping) o.logger.warn(`no assignment from the group within ${JOIN_WITHIN_MS / 1000} s; polling on`, { groupId: o.groupId });
  }

  /**
   * The log end librdkafka last learned, or `fallback` while it knows none: after a leader change it
   * answers -1 until the new leader's first fetch, which read as a log end below every commit made
   * the parallel state start over from the group's commit (the fault tier's rolling restart).
   */
  function highWatermark(partition: number, fallback: number): number {
    try {
      const { highOffset } = consumer.getWatermarkOffsets(o.topic, partition);
      return highOffset >= 0 ? highOffset : fallback;
    } catch {
      return fallback;
    }
  }

  return {
    async start() {
      const refusal = new Promise<never>((_, reject) => (refused = reject));
      try {
        await Promise.race([join(), refusal]);
      } catch (e) {
        // Nothing started: stop polling and leave. The binding's disconnect waits for connect()'s
        // metadata wait (CONNECT_WITHIN_MS) to end: the start says why now, and stop() awaits the leaving.
        stopping = true;
        polling = false;
        joined();
        await loop;
        void leave();
        throw e;
      } finally {
        refused = undefined;
      }
    },
    async stop(deadlineAt) {
      stopping = true;
      for (const s of slots.values()) {
        clearTimeout(s.retry);
        clearTimeout(s.refetch);
      }
      const batches = () => Promise.allSettled([...slots.values()].map((s) => s.running)).then(() => undefined);
      if (deadlineAt !== undefined && !(await settledBy(batches(), deadlineAt))) {
        leftBehind = true;
        passDeadline();
        o.logger.warn('a chunk is still running at the stop deadline: leaving the group without it; its records are not committed, and go to the next owner', { groupId: o.groupId, memberId });
      } else await batches();
      polling = false;
      await loop;
      // A static member leaves without giving up its partitions (KIP-345): they wait for its return.
      await leave();
    },
    memberId: () => memberId,
  };
}

/** librdkafka's message -> Sluice's record; headers beyond the bounds make it unreadable, as on kafkajs. */
function toRecord(topic: string, partition: number, m: Message): KafkaRecord {
  const base: KafkaRecord = {
    topic, partition, offset: m.offset, timestamp: m.timestamp ?? 0, timestampType: 'CREATE_TIME',
    key: m.key === undefined || m.key === null ? null : Buffer.isBuffer(m.key) ? m.key : Buffer.from(String(m.key)), value: m.value ?? null, headers: [],
  };
  const letGo = letGoRecord(base, m);
  if (letGo) return letGo;
  const over = (m as NativeMarks).sluiceHeadersOverLimit;
  if (over) return headersOverBound(base, over, INPUT_BOUNDS);
  try {
    base.headers = readHeaderPairs(headerPairsOf(m.headers), INPUT_BOUNDS);
    return base;
  } catch (e) {
    return withoutHeaders(base, e);
  }
}

/** The consumer, or a ConfigError when librdkafka refuses its configuration (a key that does not decrypt, a PEM it cannot read). */
function newConsumer(
  KafkaConsumer: RdkafkaModule['KafkaConsumer'], config: Record<string, unknown>, topicConfig: Record<string, unknown>, refusal: (message: string) => string,
): Consumer {
  try {
    return new KafkaConsumer(config as never, topicConfig as never) as Consumer;
  } catch (e) {
    throw new ConfigError(refusal((e as Error).message), { cause: e });
  }
}
