/**
 * A member of a share group (KIP-932) on one topic: it heartbeats the group's coordinator
 * (ShareGroupHeartbeat; the coordinator assigns partitions, several members may share each), keeps
 * a share session with each leader of its partitions (leader-session.ts), hands on what they
 * acquire, and sends each record's acknowledgement to its partition's leader: ACCEPT (done), RELEASE
 * (deliver again), REJECT (never again), or a renewal of its lock. Records in hand are bounded by
 * `maxInFlight`: past it, sessions stop fetching until acknowledgements come back.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../observe/logger.ts';
import { LeaderSession, ranges, type AckOutcome, type AcquiredBatch, type SessionHost } from './leader-session.ts';
import { API, metadata, shareGroupHeartbeat, type AckBatch, type AckType, type HeartbeatAnswer } from './messages.ts';
import type { ShareTransport } from './transport.ts';

export type { AckOutcome, AcquiredBatch, ShareRecord } from './leader-session.ts';

export interface ShareMemberOptions {
  groupId: string;
  topic: string;
  transport: ShareTransport;
  logger: Logger;
  /** Records acquired and not yet acknowledged, at most. */
  maxInFlight: number;
  fetch: { maxWaitMs: number; maxBytes: number; maxRecords: number };
  onBatch(batch: AcquiredBatch): void;
  /** The member cannot go on (the cluster has no share groups, the group is another kind, not authorized…). */
  onCrash(error: Error): void;
  /** The coordinator assigned these partitions (the first time, and on every change). */
  onAssigned?(partitions: number[]): void;
  /** What became of acknowledgements (AckOutcome); `error` says why for all but `applied`. */
  onAcknowledged?(partition: number, batches: readonly AckBatch[], outcome: AckOutcome, error?: string): void;
}

/** What a cluster without share groups needs (Kafka 4.4 still lists the share RPCs then, and refuses the heartbeat). */
export const NEEDS_SHARE_GROUPS =
  'queue mode needs share groups: Kafka 4.2 or later with the share.version feature at 1 or above (kafka-features --bootstrap-server <broker> upgrade --feature share.version=1)';

const FATAL: Record<number, string> = {
  23: 'is used by a consumer group of another kind (INCONSISTENT_GROUP_PROTOCOL): give the queue-mode trigger a consumerGroupId of its own',
  // Kafka 4.4's coordinator answers a share heartbeat for a group id a consumer group holds with this ("Group g is not a share group.").
  69: 'is not a share group (GROUP_ID_NOT_FOUND): a consumer group of another kind uses the id; give the queue-mode trigger a consumerGroupId of its own',
  29: 'may not read the topic (TOPIC_AUTHORIZATION_FAILED): grant Read on the topic to the trigger\'s principal',
  30: 'may not be joined (GROUP_AUTHORIZATION_FAILED): grant Read on the group to the trigger\'s principal',
  35: `cannot be joined (UNSUPPORTED_VERSION): ${NEEDS_SHARE_GROUPS}`,
  81: 'is full (GROUP_MAX_SIZE_REACHED): raise group.share.max.size on the cluster, or run fewer pollers',
};
const COORDINATOR_MOVING = new Set([14, 15, 16]);
const MEMBER_GONE = new Set([25, 110]);
/** Heartbeats in a row not answered, or refused with a code the member does not know, before the member gives up (the supervisor restarts it). */
const MAX_FAILED_BEATS = 5;
/**
 * Tries of the first heartbeat while it gets no answer or the coordinator is still being placed
 * (a broker that just started), 1 s apart: its answer decides the start. Past them, the member
 * starts and its heartbeats go on as any later ones do.
 */
const FIRST_BEAT_TRIES = 30;
/** How soon a member with nothing assigned yet heartbeats again. */
const UNASSIGNED_BEAT_MS = 250;
/** How long after a leader moved the member reads where it went. */
const LEADER_MOVED_WAIT_MS = 1_000;

export class ShareMember {
  private id = randomUUID();
  private epoch = 0;
  private topicId: string | undefined;
  private leaders = new Map<number, number>();
  private readonly sessions = new Map<number, LeaderSession>();
  private assigned: number[] = [];
  private inFlight = 0;
  private beatTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private failedBeats = 0;
  /** Heartbeats in a row refused with a code that is neither fatal nor transient (MAX_FAILED_BEATS of them end the member). */
  private refusedBeats = 0;
  /** Why the member crashed, once it has. */
  private ended: string | undefined;
  private version: 1 | 2 = 2;
  private subscribe = true;
  private announced: string | undefined;
  private movingLeaders: NodeJS.Timeout | undefined;

  constructor(private readonly o: ShareMemberOptions) {}

  memberId(): string {
    return this.id;
  }

  /** Partitions the coordinator assigned to this member now. */
  assignment(): number[] {
    return [...this.assigned];
  }

  /** Records handed on and not yet acknowledged. */
  held(): number {
    return this.inFlight;
  }

  async start(): Promise<void> {
    const hb = await this.o.transport.versions(API.ShareGroupHeartbeat);
    const fetch = await this.o.transport.versions(API.ShareFetch);
    if (!hb || !fetch || hb.max < 1 || fetch.max < 1) {
      throw new Error(`the cluster does not offer ShareGroupHeartbeat v1 and ShareFetch v1: ${NEEDS_SHARE_GROUPS}`);
    }
    this.version = fetch.max >= 2 ? 2 : 1;
    await this.readMetadata();
    // The first heartbeat's refusal is the start's: thrown, so the poller stops with it instead of restarting a member that cannot join.
    await this.beat(true);
  }

  /** Acknowledges records of `partition` (each offset once); their locks end with it. */
  acknowledge(partition: number, offsets: readonly number[], type: AckType): void {
    this.inFlight = Math.max(0, this.inFlight - offsets.length);
    const session = this.sessionOf(partition);
    if (session) session.acknowledge(partition, offsets, type);
    else {
      const batches = ranges(new Map(offsets.map((o) => [o, type])));
      // The member crashed: its sessions are closed, and what it held goes back to the group with them.
      if (this.ended) this.tellAcknowledged(partition, batches, 'unsent', `the member had ended (${this.ended}); their records go to a member again`);
      else {
        // No leader known now (an election): the next leader knows nothing of records acquired from the last one.
        this.o.logger.warn('acknowledgements not sent: the partition has no leader known now; their records go to a member again', { partition, records: offsets.length });
        this.tellAcknowledged(partition, batches, 'unsent', 'the partition had no leader known when they were made');
      }
    }
    for (const s of this.sessions.values()) s.poke();
  }

  /** Extends the acquisition locks of records still being worked on (KIP-1222; not on a broker with ShareAcknowledge v1 only). */
  renew(partition: number, offsets: readonly number[]): boolean {
    if (this.version < 2) return false;
    this.sessionOf(partition)?.renew(partition, offsets);
    return true;
  }

  /**
   * Stops taking records, waits until those in hand are acknowledged (or `deadlineAt`), sends
   * the acknowledgements, closes the sessions (the broker releases what was not acknowledged),
   * and leaves the group.
   */
  async stop(deadlineAt = Date.now() + 30_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.beatTimer);
    clearTimeout(this.movingLeaders);
    while (this.inFlight > 0 && Date.now() < deadlineAt) await new Promise((r) => setTimeout(r, 20));
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
    this.sessions.clear();
    await this.o.transport
      .send({ coordinatorOf: this.o.groupId }, shareGroupHeartbeat({ groupId: this.o.groupId, memberId: this.id, memberEpoch: -1, topics: null }))
      .catch((e: unknown) => this.o.logger.warn('leaving the share group failed; the coordinator drops the member when its session times out', { error: e }));
  }

  private sessionOf(partition: number): LeaderSession | undefined {
    const node = this.leaders.get(partition);
    return node === undefined ? undefined : this.sessions.get(node);
  }

  private async readMetadata(): Promise<void> {
    const m = await this.o.transport.send('any', metadata([this.o.topic]));
    const t = m.topics.find((x) => x.name === this.o.topic);
    if (!t || t.errorCode !== 0) throw new Error(`topic "${this.o.topic}" cannot be read${t ? ` (error ${t.errorCode})` : ''}: create it, or check the trigger's topic`);
    this.topicId = t.topicId;
    this.leaders = new Map(t.partitions.filter((p) => p.leader >= 0).map((p) => [p.partition, p.leader]));
  }

  private async beat(first = false, tries = 1): Promise<void> {
    if (this.stopping) return;
    const again = async () => {
      await new Promise((r) => setTimeout(r, 1_000));
      return this.beat(true, tries + 1);
    };
    let answer: HeartbeatAnswer;
    try {
      answer = await this.o.transport.send(
        { coordinatorOf: this.o.groupId },
        shareGroupHeartbeat({ groupId: this.o.groupId, memberId: this.id, memberEpoch: this.epoch, topics: this.subscribe ? [this.o.topic] : null }),
      );
    } catch (e) {
      // Stopped (or crashed) while the heartbeat was out: its failure ends nothing more.
      if (this.stopping) return;
      if (first && tries < FIRST_BEAT_TRIES) return again();
      if (++this.failedBeats >= MAX_FAILED_BEATS) return this.crash(new Error(`the share group's coordinator did not answer ${MAX_FAILED_BEATS} heartbeats in a row: ${(e as Error).message}`));
      return this.schedule(1_000);
    }
    // Stopped while the heartbeat was out: stop() leaves the group; the answer changes nothing now (a refusal crashes no stopping member).
    if (this.stopping && !first) return;
    this.failedBeats = 0;
    if (answer.errorCode !== 0) {
      const fatal = FATAL[answer.errorCode];
      if (fatal && first) throw new Error(`share group "${this.o.groupId}" ${fatal}`);
      if (fatal) return this.crash(new Error(`share group "${this.o.groupId}" ${fatal}`));
      if (first && COORDINATOR_MOVING.has(answer.errorCode) && tries < FIRST_BEAT_TRIES) return again();
      if (MEMBER_GONE.has(answer.errorCode)) this.rejoin(`heartbeat: ${answer.errorCode} ${answer.errorMessage ?? ''}`.trim());
      else if (!COORDINATOR_MOVING.has(answer.errorCode)) {
        // A code this member does not know: said once, and refused in a row it ends the member (the supervisor restarts it, then gives up).
        if (++this.refusedBeats === 1) this.o.logger.warn('share group heartbeat refused; heartbeating again', { error: answer.errorCode, message: answer.errorMessage });
        if (this.refusedBeats >= MAX_FAILED_BEATS) {
          return this.crash(new Error(`share group "${this.o.groupId}" refused ${MAX_FAILED_BEATS} heartbeats in a row (error ${answer.errorCode})${answer.errorMessage ? `: ${answer.errorMessage}` : ''}`));
        }
      }
      return this.schedule(500);
    }
    this.refusedBeats = 0;
    this.subscribe = false;
    this.epoch = answer.memberEpoch;
    if (answer.assignment) await this.assign(answer.assignment);
    // Until the coordinator has assigned something, ask again soon: its first answers often have no assignment yet.
    this.schedule(this.announced === undefined ? Math.min(answer.heartbeatIntervalMs, UNASSIGNED_BEAT_MS) : answer.heartbeatIntervalMs);
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    clearTimeout(this.beatTimer);
    this.beatTimer = setTimeout(() => void this.beat(), ms);
  }

  private async assign(assignment: NonNullable<HeartbeatAnswer['assignment']>): Promise<void> {
    // An id not known (the topic was deleted and made again) or a partition with no leader known: read the metadata first.
    if (assignment.some((a) => a.topicId !== this.topicId || a.partitions.some((p) => !this.leaders.has(p)))) {
      await this.readMetadata().catch((e: unknown) => this.o.logger.warn('reading the topic\'s metadata failed', { error: e }));
    }
    this.assigned = assignment.filter((a) => a.topicId === this.topicId).flatMap((a) => a.partitions).sort((a, b) => a - b);
    this.place();
    // A share group's first answers may assign nothing yet: announced once there is something, then on every change.
    const now = this.assigned.join(',');
    if (now !== this.announced && (now !== '' || this.announced !== undefined)) {
      this.announced = now;
      this.o.onAssigned?.(this.assignment());
    }
  }

  /** Each assigned partition to its leader's session; sessions left with none close. A partition with no leader known yet has the metadata read again. */
  private place(): void {
    const byNode = new Map<number, number[]>();
    for (const p of this.assigned) {
      const node = this.leaders.get(p);
      if (node !== undefined) byNode.set(node, [...(byNode.get(node) ?? []), p]);
      else this.lookAgain();
    }
    for (const [node, partitions] of byNode) {
      let s = this.sessions.get(node);
      if (!s) this.sessions.set(node, (s = new LeaderSession(node, this.host())));
      s.wanted.clear();
      for (const p of partitions) s.wanted.add(p);
      s.poke();
    }
    for (const [node, s] of this.sessions) {
      if (byNode.has(node)) continue;
      s.wanted.clear();
      s.poke();
    }
  }

  /** Reads where the partitions' leaders are, then places them: one read a second at most (a deleted topic answers every fetch with a moved leader). */
  private lookAgain(): void {
    if (this.movingLeaders || this.stopping) return;
    this.movingLeaders = setTimeout(() => {
      this.movingLeaders = undefined;
      void this.readMetadata()
        .catch((e: unknown) => this.o.logger.warn('reading the topic\'s metadata failed', { error: e }))
        .then(() => this.o.transport.refresh().catch(() => undefined))
        .then(() => this.place());
    }, LEADER_MOVED_WAIT_MS);
  }

  private rejoin(why: string): void {
    this.o.logger.warn('the share group no longer knows this member; joining again', { why });
    this.epoch = 0;
    this.subscribe = true;
    // What it holds stays counted until the runner acknowledges it (the broker may refuse those acknowledgements).
  }

  private crash(error: Error): void {
    this.stopping = true;
    this.ended = error.message;
    clearTimeout(this.beatTimer);
    clearTimeout(this.movingLeaders);
    for (const s of this.sessions.values()) void s.close();
    // Acknowledgements made from now on (the runner finishing what it holds) are told unsent, not left in a closed session.
    this.sessions.clear();
    this.o.onCrash(error);
  }

  private host(): SessionHost {
    const self = this;
    return {
      groupId: this.o.groupId,
      topic: this.o.topic,
      get topicId() {
        return self.topicId!;
      },
      memberId: () => this.id,
      transport: this.o.transport,
      logger: this.o.logger,
      get version() {
        return self.version;
      },
      fetchLimits: this.o.fetch,
      wantsRecords: () => !this.stopping && this.inFlight < this.o.maxInFlight,
      delivered: (batch) => {
        this.inFlight += batch.records.length;
        this.o.onBatch(batch);
      },
      leaderMoved: () => this.lookAgain(),
      acknowledged: (partition, batches: AckBatch[], outcome, error) => {
        if (outcome !== 'applied') {
          const count = batches.reduce((n, b) => n + Number(b.lastOffset - b.firstOffset) + 1, 0);
          this.o.logger.warn(outcome === 'unknown' ? 'acknowledgements in flight when a request failed: sent again' : `acknowledgements ${outcome}: their records go to a member again`, { partition, records: count, error });
        }
        this.tellAcknowledged(partition, batches, outcome, error);
      },
      fenced: (error) => this.rejoin(error),
    };
  }

  /** An outcome to the listener, which may not throw into the session: the rest of its answer's outcomes still come. */
  private tellAcknowledged(partition: number, batches: readonly AckBatch[], outcome: AckOutcome, error?: string): void {
    try {
      this.o.onAcknowledged?.(partition, batches, outcome, error);
    } catch (e) {
      this.o.logger.error('a listener of acknowledgement outcomes threw; the other outcomes go on', { partition, outcome, error: e });
    }
  }
}
