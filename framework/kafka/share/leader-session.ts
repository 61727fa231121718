/**
 * One share session (KIP-932) with one partition leader: the partitions this member fetches from it,
 * and the acknowledgements and lock renewals waiting to go to it. Requests of a session go one at a
 * time, each with the next epoch (0 opens it, -1 closes it). Acknowledgements ride on the next
 * ShareFetch when the member can take records; a ShareAcknowledge carries them when it cannot, and
 * renewals (KIP-1222) go on a ShareAcknowledge of their own. A fetch waits at the broker up to
 * `maxWaitMs` for records, so an acknowledgement made meanwhile waits at most that long.
 */
import type { KafkaRecord } from '../../event/record.ts';
import { markUnreadable } from '../record-headers.ts';
import type { Logger } from '../../observe/logger.ts';
import { ACK, shareAcknowledge, shareFetch, type AckBatch, type AckType, type PartitionFetched, type TopicAcks } from './messages.ts';
import type { ShareTransport } from './transport.ts';

export interface ShareRecord extends KafkaRecord {
  /** How many times the broker has handed this record out, this time included (1: the first delivery). */
  deliveryCount: number;
}

/**
 * What became of acknowledgements: `applied` by the broker; `refused` by it (a lock that ran out: the
 * record is someone else's now); `unsent`, given up before they could go; `unknown`, in flight when
 * the connection failed (the broker may have applied them; they are sent again).
 */
export type AckOutcome = 'applied' | 'refused' | 'unsent' | 'unknown';

/** What one ShareFetch acquired on one partition. */
export interface AcquiredBatch {
  topic: string;
  partition: number;
  records: ShareRecord[];
  /** When the records' acquisition locks run out (epoch ms), unless renewed. */
  lockExpiresAt: number;
  /** The node that handed them out (the partition's leader then). */
  leader: number;
}

export interface SessionHost {
  readonly groupId: string;
  readonly topic: string;
  readonly topicId: string;
  memberId(): string;
  transport: ShareTransport;
  logger: Logger;
  /** ShareFetch/ShareAcknowledge version (2 renews locks; 1 cannot). */
  version: 1 | 2;
  fetchLimits: { maxWaitMs: number; maxBytes: number; maxRecords: number };
  /** Whether the member takes more records now (its records in hand are under its bound, and it is not stopping). */
  wantsRecords(): boolean;
  delivered(batch: AcquiredBatch): void;
  /** A partition's leader moved or is unknown: the member reads the metadata again and reassigns it. */
  leaderMoved(partition: number): void;
  /** What became of acknowledgements of `partition` (AckOutcome); `error` says why for all but `applied`. */
  acknowledged(partition: number, batches: AckBatch[], outcome: AckOutcome, error?: string): void;
  /** The member's membership is gone (unknown member, fenced): it rejoins. */
  fenced(error: string): void;
}

const SESSION_GONE = new Set([122, 123]); // SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH
const LEADER_MOVED = new Set([3, 6, 74, 75, 100]); // unknown partition, not leader, fenced/unknown leader epoch, unknown topic id
const MEMBER_GONE = new Set([25, 110]); // UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH
const RETRY_MS = 500;
/** Requests to a node failed in a row before the member reads the metadata again (a leader killed and not back). */
const FAILURES_BEFORE_LOOKING = 3;

export class LeaderSession {
  private epoch = 0;
  /** Partitions the broker's session holds. */
  private readonly inSession = new Set<number>();
  /** Partitions the member wants from this leader. */
  readonly wanted = new Set<number>();
  private readonly acks = new Map<number, Map<number, AckType>>();
  private readonly renewals = new Map<number, Set<number>>();
  private wake: (() => void) | undefined;
  private closing = false;
  /** After a refusal that is not the session's end (SHARE_SESSION_LIMIT_REACHED…): the next request waits until then. */
  private backoffUntil = 0;
  /** Requests that failed in a row (a connection lost, a broker gone). */
  private failures = 0;
  readonly done: Promise<void>;

  constructor(
    readonly nodeId: number,
    private readonly host: SessionHost,
  ) {
    this.done = this.run();
  }

  acknowledge(partition: number, offsets: readonly number[], type: AckType): void {
    const of = this.acks.get(partition) ?? new Map<number, AckType>();
    this.acks.set(partition, of);
    for (const o of offsets) of.set(o, type);
    this.poke();
  }

  renew(partition: number, offsets: readonly number[]): void {
    if (this.host.version < 2) return;
    const of = this.renewals.get(partition) ?? new Set<number>();
    this.renewals.set(partition, of);
    for (const o of offsets) of.add(o);
    this.poke();
  }

  /** Something changed (records may be taken, partitions wanted): the loop looks again. */
  poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Sends what acknowledgements remain and closes the session; `done` settles after. */
  close(): Promise<void> {
    this.closing = true;
    this.poke();
    return this.done;
  }

  private async run(): Promise<void> {
    for (;;) {
      try {
        if (this.backoffUntil > Date.now() && !this.closing) await new Promise((r) => setTimeout(r, this.backoffUntil - Date.now()));
        if (this.closing) return await this.closeSession();
        if (this.epoch === 0) this.dropUnsendable();
        if (this.renewals.size > 0 && this.epoch > 0) {
          await this.sendRenewals();
          continue;
        }
        const fetch = this.wanted.size > 0 && this.host.wantsRecords();
        if (fetch) await this.fetch();
        else if (this.acks.size > 0 && this.epoch > 0) await this.sendAcks();
        else await new Promise<void>((resolve) => (this.wake = resolve));
      } catch (e) {
        // A connection lost or a broker gone: the session is lost with it. Acknowledgements not
        // answered were put back; the next request opens a new session. A broker that stays down
        // (killed) is no longer its partitions' leader: after a few failures in a row the member
        // reads where they went.
        this.host.logger.warn('share session request failed; opening a new session', { node: this.nodeId, error: e });
        if (++this.failures % FAILURES_BEFORE_LOOKING === 0) for (const p of this.wanted) this.host.leaderMoved(p);
        this.reset();
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  private async fetch(): Promise<void> {
    const opening = this.epoch === 0;
    // A session is opened with no acknowledgements; after that, only partitions new to it or with acknowledgements are named.
    const acks = opening ? new Map<number, AckBatch[]>() : this.takeAcks();
    const partitions = opening ? [...this.wanted] : [...new Set([...[...this.wanted].filter((p) => !this.inSession.has(p)), ...acks.keys()])];
    const forgotten = opening ? [] : [...this.inSession].filter((p) => !this.wanted.has(p));
    const { maxWaitMs, maxBytes, maxRecords } = this.host.fetchLimits;
    let answer;
    try {
      answer = await this.host.transport.send(
        { nodeId: this.nodeId, fetch: true },
        shareFetch(
          {
            groupId: this.host.groupId, memberId: this.host.memberId(), sessionEpoch: this.epoch, maxWaitMs: acks.size > 0 ? 0 : maxWaitMs, minBytes: 1, maxBytes, maxRecords, batchSize: maxRecords, recordLimit: true,
            topics: partitions.length ? [this.topicAcks(partitions, acks)] : [], forgotten: forgotten.length ? [{ topicId: this.host.topicId, partitions: forgotten }] : [],
          },
          this.host.version,
        ),
      );
    } catch (e) {
      this.inFlightLost(acks, e);
      throw e;
    }
    this.failures = 0;
    if (answer.errorCode !== 0) return this.sessionError(answer.errorCode, answer.errorMessage, acks);
    this.epoch = nextEpoch(this.epoch);
    // Naming a partition adds it to the session (one with acknowledgements but no longer wanted is forgotten next time).
    for (const p of partitions) this.inSession.add(p);
    for (const p of forgotten) this.inSession.delete(p);
    const acquiredAt = Date.now();
    const named = new Set<number>();
    for (const t of answer.topics) {
      if (t.topicId !== this.host.topicId) continue;
      for (const p of t.partitions) {
        named.add(p.partition);
        await this.take(p, acks.get(p.partition), acquiredAt + answer.acquisitionLockTimeoutMs);
      }
    }
    this.unanswered(acks, named);
  }

  /**
   * Acknowledgements of partitions the broker's answer did not name: applied or not, it did not say
   * (Kafka's Java client fails them as INVALID_RESPONSE). Not sent again; if not applied, their
   * records come back when their locks run out.
   */
  private unanswered(acks: Map<number, AckBatch[]>, named: ReadonlySet<number>): void {
    for (const [p, batches] of acks) if (batches.length && !named.has(p)) this.host.acknowledged(p, batches, 'unknown', `the answer of node ${this.nodeId} did not name the partition`);
  }

  /** One partition of a ShareFetch answer: its acknowledgements' outcome, its error, its records. */
  private async take(p: PartitionFetched, sent: AckBatch[] | undefined, lockExpiresAt: number): Promise<void> {
    if (sent?.length) {
      if (p.ackErrorCode !== 0) this.host.acknowledged(p.partition, sent, 'refused', `${p.ackErrorCode}${p.ackErrorMessage ? ` ${p.ackErrorMessage}` : ''}`);
      else this.host.acknowledged(p.partition, sent, 'applied');
    }
    if (p.errorCode !== 0) {
      if (LEADER_MOVED.has(p.errorCode)) {
        // Still in this session: the next request forgets it here, and the member places it with its new leader.
        this.wanted.delete(p.partition);
        this.host.leaderMoved(p.partition);
      } else this.host.logger.warn('share fetch refused a partition', { partition: p.partition, error: p.errorCode, message: p.errorMessage });
      return;
    }
    if (p.acquired.length === 0) return;
    let decoded: { records: KafkaRecord[]; through: number };
    try {
      decoded = p.records ? await this.host.transport.decode(this.host.topic, p.partition, p.records) : { records: [], through: -1 };
    } catch (e) {
      // The decoder itself failed: every acquired record becomes an unreadable one, for the destination.
      this.host.logger.warn('share fetch: a partition\'s records could not be decoded; they go to the on-failure destination as unreadable', { partition: p.partition, error: e });
      decoded = { records: unreadable(this.host.topic, p, e), through: Number(p.acquired[p.acquired.length - 1]!.lastOffset) };
    }
    const { records, through } = decoded;
    const byOffset = new Map(records.map((r) => [r.offset, r]));
    const taken: ShareRecord[] = [];
    const gaps: number[] = [];
    const unread: number[] = [];
    for (const a of p.acquired) {
      for (let o = Number(a.firstOffset); o <= Number(a.lastOffset); o++) {
        const r = byOffset.get(o);
        if (r) taken.push({ ...r, deliveryCount: a.deliveryCount });
        else if (o <= through) gaps.push(o);
        else unread.push(o);
      }
    }
    // An acquired offset with no record among the batches read (a transaction marker, a compacted
    // record) is a gap: acknowledged as one, never handed on. One past what the decoder read (its
    // budget of decompressed bytes ran out) is released, and read at the front of a later fetch.
    if (gaps.length) this.acknowledge(p.partition, gaps, ACK.GAP);
    if (unread.length) this.acknowledge(p.partition, unread, ACK.RELEASE);
    if (taken.length) this.host.delivered({ topic: this.host.topic, partition: p.partition, records: taken, lockExpiresAt, leader: this.nodeId });
  }

  private async sendAcks(): Promise<void> {
    const acks = this.takeAcks();
    let answer;
    try {
      answer = await this.host.transport.send(
        { nodeId: this.nodeId },
        shareAcknowledge({ groupId: this.host.groupId, memberId: this.host.memberId(), sessionEpoch: this.epoch, topics: [this.topicAcks([...acks.keys()], acks)] }, this.host.version),
      );
    } catch (e) {
      this.inFlightLost(acks, e);
      throw e;
    }
    this.failures = 0;
    if (answer.errorCode !== 0) return this.sessionError(answer.errorCode, answer.errorMessage, acks);
    this.epoch = nextEpoch(this.epoch);
    this.answered(answer.topics, acks);
  }

  /** A ShareAcknowledge's outcome per partition sent. */
  private answered(topics: ReadonlyArray<{ topicId: string; partitions: ReadonlyArray<{ partition: number; errorCode: number; errorMessage: string | null }> }>, acks: Map<number, AckBatch[]>): void {
    const named = new Set<number>();
    for (const t of topics) {
      if (t.topicId !== this.host.topicId) continue;
      for (const p of t.partitions) {
        named.add(p.partition);
        const sent = acks.get(p.partition);
        if (!sent?.length) continue;
        if (p.errorCode !== 0) this.host.acknowledged(p.partition, sent, 'refused', `${p.errorCode}${p.errorMessage ? ` ${p.errorMessage}` : ''}`);
        else this.host.acknowledged(p.partition, sent, 'applied');
      }
    }
    this.unanswered(acks, named);
  }

  private async sendRenewals(): Promise<void> {
    const renewals = new Map([...this.renewals].map(([p, offsets]) => [p, ranges(new Map([...offsets].map((o) => [o, ACK.RENEW as AckType])))]));
    this.renewals.clear();
    const answer = await this.host.transport.send(
      { nodeId: this.nodeId },
      shareAcknowledge({ groupId: this.host.groupId, memberId: this.host.memberId(), sessionEpoch: this.epoch, renew: true, topics: [this.topicAcks([...renewals.keys()], renewals)] }, 2),
    );
    if (answer.errorCode !== 0) return this.sessionError(answer.errorCode, answer.errorMessage, new Map());
    this.epoch = nextEpoch(this.epoch);
    for (const t of answer.topics) for (const p of t.partitions) if (p.errorCode !== 0) this.host.logger.warn('the broker refused to renew acquisition locks', { partition: p.partition, error: p.errorCode, message: p.errorMessage });
  }

  private async closeSession(): Promise<void> {
    const acks = this.takeAcks();
    if (this.epoch === 0) {
      // No session to send them in (a lost connection ended it): the broker gives those records to a member again when their locks run out.
      if (acks.size > 0) this.host.logger.warn('closing: acknowledgements not sent, the share session was lost; their records are delivered again once their locks run out', { node: this.nodeId, partitions: [...acks.keys()] });
      for (const [p, batches] of acks) this.host.acknowledged(p, batches, 'unsent', 'the share session was lost before the member closed');
      return;
    }
    // Epoch -1 closes the session once its acknowledgements are applied; what the member still holds is released.
    const answer = await this.host.transport
      .send({ nodeId: this.nodeId }, shareAcknowledge({ groupId: this.host.groupId, memberId: this.host.memberId(), sessionEpoch: -1, topics: acks.size ? [this.topicAcks([...acks.keys()], acks)] : [] }, this.host.version))
      .catch((e: unknown) => {
        this.host.logger.warn('closing the share session failed; the broker releases its records when the lock runs out', { node: this.nodeId, error: e });
        for (const [p, batches] of acks) this.host.acknowledged(p, batches, 'unknown', `closing the share session failed: ${(e as Error)?.message ?? String(e)}`);
        return undefined;
      });
    if (!answer) return;
    if (answer.errorCode !== 0) {
      this.host.logger.warn('closing the share session was refused', { node: this.nodeId, error: answer.errorCode, message: answer.errorMessage });
      for (const [p, batches] of acks) this.host.acknowledged(p, batches, 'refused', `closing the share session was refused: ${answer.errorCode}${answer.errorMessage ? ` ${answer.errorMessage}` : ''}`);
      return;
    }
    this.answered(answer.topics, acks);
  }

  /**
   * With no session open, acknowledgements of a partition this session no longer fetches (its
   * leader moved while they waited) can never go: a new session is opened only for partitions
   * wanted, and the new leader knows nothing of records acquired here. They are given up, said so.
   */
  private dropUnsendable(): void {
    for (const p of [...this.acks.keys()]) {
      if (this.wanted.has(p)) continue;
      const batches = ranges(this.acks.get(p)!);
      this.acks.delete(p);
      this.host.acknowledged(p, batches, 'unsent', 'the share session with the partition\'s leader was lost, and the partition moved to another leader');
    }
  }

  private sessionError(code: number, message: string | null, acks: Map<number, AckBatch[]>): void {
    this.putBack(acks);
    if (MEMBER_GONE.has(code)) {
      // A new membership holds none of these records: their acknowledgements can never be applied.
      for (const [p, batches] of this.takeAcks()) this.host.acknowledged(p, batches, 'unsent', `the share group fenced the member (${code}${message ? ` ${message}` : ''})`);
      this.reset();
      this.host.fenced(`${code}${message ? ` ${message}` : ''}`);
      return;
    }
    if (!SESSION_GONE.has(code)) {
      this.host.logger.warn('share session request refused; opening a new session', { node: this.nodeId, error: code, message });
      this.backoffUntil = Date.now() + RETRY_MS;
    }
    this.reset();
  }

  private reset(): void {
    this.epoch = 0;
    this.inSession.clear();
  }

  private takeAcks(): Map<number, AckBatch[]> {
    const out = new Map([...this.acks].map(([p, of]) => [p, ranges(of)]));
    this.acks.clear();
    return out;
  }

  /** A request carrying acknowledgements failed on its way: the broker may have applied them or not. They go again (a second acceptance of one applied is refused). */
  private inFlightLost(acks: Map<number, AckBatch[]>, e: unknown): void {
    for (const [p, batches] of acks) if (batches.length) this.host.acknowledged(p, batches, 'unknown', `in flight when the request to node ${this.nodeId} failed: ${(e as Error)?.message ?? String(e)}`);
    this.putBack(acks);
  }

  private putBack(acks: Map<number, AckBatch[]>): void {
    for (const [p, batches] of acks)
      for (const b of batches) for (let o = Number(b.firstOffset), i = 0; o <= Number(b.lastOffset); o++, i++) this.acknowledge(p, [o], b.types[b.types.length === 1 ? 0 : i]!);
  }

  private topicAcks(partitions: number[], acks: Map<number, AckBatch[]>): TopicAcks {
    return { topicId: this.host.topicId, partitions: partitions.map((partition) => ({ partition, batches: acks.get(partition) ?? [] })) };
  }
}

/** The epoch after `e`: it wraps to 1 (0 opens a session, -1 closes one). */
function nextEpoch(e: number): number {
  return e === 2147483647 ? 1 : e + 1;
}

/** What the decoder could not read, as one unreadable record per acquired offset. */
function unreadable(topic: string, p: PartitionFetched, e: unknown): KafkaRecord[] {
  const out: KafkaRecord[] = [];
  const why = `the share fetch's records could not be decoded: ${(e as Error)?.message ?? String(e)}`;
  for (const a of p.acquired)
    for (let o = Number(a.firstOffset); o <= Number(a.lastOffset); o++)
      out.push(markUnreadable({ topic, partition: p.partition, offset: o, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [] }, 'RecordUnreadable', new Error(why)));
  return out;
}

/** Offsets and their types as batches of consecutive offsets of one type each. */
export function ranges(of: Map<number, AckType>): AckBatch[] {
  const offsets = [...of.keys()].sort((a, b) => a - b);
  const out: AckBatch[] = [];
  for (const o of offsets) {
    const type = of.get(o)!;
    const last = out[out.length - 1];
    if (last && Number(last.lastOffset) === o - 1 && last.types[0] === type) last.lastOffset = BigInt(o);
    else out.push({ firstOffset: BigInt(o), lastOffset: BigInt(o), types: [type] });
  }
  return out;
}
