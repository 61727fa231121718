/**
 * Keeps one trigger consuming. Whatever stops its consumer (a non-retriable error, a fetch loop
 * that ran out of retries, a bug in Sluice's own code), the supervisor sees the old member out
 * (its in-flight batches finish), waits a bounded, jittered backoff and starts a fresh member.
 * A member that does useful work, or runs `stableAfterMs` without stopping, resets the count;
 * more than `maxConsumerRestarts` stops in a row end in `onGiveUp`, and the process exits
 * naming the trigger: there is never a live poller with a dead trigger.
 */
import type { TriggerSpec } from '../config/types.ts';
import { SluiceError } from '../errors.ts';
import { retryDelayMs, type BackoffOptions } from '../failure/backoff.ts';
import { describeCause, hasKafkaErrorType } from '../kafka/kafkajs/client.ts';
import type { GroupMember } from '../kafka/member-port.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { settledBy } from '../kafka/settled-by.ts';

export const RESTART_BACKOFF: BackoffOptions = { baseMs: 1_000, capMs: 30_000 };

export interface MemberHooks {
  onCrash(error: Error): void;
  onProgress(): void;
  /** The previous member's id: the new member leaves the group for it before joining. */
  replaces?: string;
}

export interface SupervisorOptions {
  trigger: Pick<TriggerSpec, 'functionName' | 'consumerGroupId' | 'topic' | 'path' | 'maxConsumerRestarts' | 'sessionTimeoutMs'>;
  /** A fresh member (a new consumer, a new member id) on every call. */
  createMember(hooks: MemberHooks): GroupMember;
  events: Instrumentation;
  logger: Logger;
  /** Called once, when the trigger stopped more times in a row than it may. */
  onGiveUp(error: SluiceError): void;
  backoff?: BackoffOptions;
  /** How long a member must run without stopping to count as healthy again (default: 60 s, at least two session timeouts). */
  stableAfterMs?: number;
}

export class Supervisor {
  private member: GroupMember | undefined;
  private readonly stopped = new WeakSet<GroupMember>();
  private consecutive = 0;
  /** The id of the last member that joined and has stopped: the next one leaves for it, should it not have left itself. */
  private lastMemberId: string | undefined;
  private restarts = 0;
  private stopping = false;
  private restarting: Promise<void> | undefined;
  private stableTimer: NodeJS.Timeout | undefined;
  private wait: { timer: NodeJS.Timeout; resolve(): void } | undefined;

  constructor(private readonly o: SupervisorOptions) {}

  /** Starts the first member; a failure here (the cluster refused us at start) is thrown, not retried. */
  async start(): Promise<void> {
    await this.spawn().start();
  }

  /** With `deadlineAt` (epoch ms), what still runs then is left behind (GroupMember.stop). */
  async stop(deadlineAt?: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.stableTimer);
    if (this.wait) {
      clearTimeout(this.wait.timer);
      this.wait.resolve();
    }
    if (this.restarting && deadlineAt !== undefined) await settledBy(this.restarting, deadlineAt);
    else await this.restarting;
    await this.member?.stop(deadlineAt);
  }

  private spawn(replaces?: string): GroupMember {
    const member: GroupMember = this.o.createMember({
      onCrash: (error) => this.crashed(member, error),
      onProgress: () => {
        if (member === this.member) this.consecutive = 0;
      },
      ...(replaces ? { replaces } : {}),
    });
    this.member = member;
    clearTimeout(this.stableTimer);
    const stableAfter = this.o.stableAfterMs ?? Math.max(60_000, 2 * this.o.trigger.sessionTimeoutMs);
    this.stableTimer = setTimeout(() => {
      if (member === this.member) this.consecutive = 0;
    }, stableAfter);
    this.stableTimer.unref();
    return member;
  }

  private crashed(member: GroupMember, error: Error): void {
    if (this.stopping || member !== this.member || this.stopped.has(member)) return;
    this.stopped.add(member);
    clearTimeout(this.stableTimer);
    const t = this.o.trigger;
    const ids = { functionName: t.functionName, groupId: t.consumerGroupId, topic: t.topic };
    const cause = describeCause(error);
    this.consecutive++;
    if (this.consecutive > t.maxConsumerRestarts) {
      const tries = t.maxConsumerRestarts === 0 ? 'maxConsumerRestarts is 0' : `${t.maxConsumerRestarts} restart${t.maxConsumerRestarts === 1 ? '' : 's'} in a row did not help`;
      const failure = new SluiceError(
        'TRIGGER_FAILED',
        `${t.path} (${t.functionName} ← ${t.topic}, group ${t.consumerGroupId}): the consumer stopped and ${tries}. Last cause: ${cause}. ` +
          'Fix the cause and start again (maxConsumerRestarts sets how many restarts are tried).',
        { cause: error },
      );
      this.o.logger.error('consumer stopped for good: giving up on the trigger', { ...ids, error: cause, restarts: this.restarts });
      this.o.events.emit('trigger.failed', { ...ids, error: cause, restarts: this.restarts });
      void member.stop().catch(() => undefined);
      this.o.onGiveUp(failure);
      return;
    }
    const delay = retryDelayMs(this.consecutive, this.o.backoff ?? RESTART_BACKOFF);
    const restartIn = `${(delay / 1000).toFixed(1)} s`;
    if (coordinatorNotReady(error)) {
      // A broker that just started (its offsets topic loading) or a group that moved: expected, and passing.
      this.o.logger.warn(`the group's coordinator is not ready yet (a broker that just started, or the group moving to another broker); joining again in ${restartIn}`, {
        ...ids, error: cause, consecutive: this.consecutive,
      });
    } else {
      this.o.logger.error(`consumer stopped; restarting it as a new member in ${restartIn}`, {
        ...ids, error: cause, consecutive: this.consecutive, maxConsumerRestarts: t.maxConsumerRestarts,
      });
    }
    this.o.events.emit('trigger.consumer_stopped', { ...ids, error: cause, consecutive: this.consecutive, restartInMs: delay });
    this.restarting = this.restart(member, delay);
  }

  private async restart(old: GroupMember, delayMs: number): Promise<void> {
    // The old member's in-flight batches end first: a new member must not get a partition while
    // a chunk of it still runs here.
    await old.stop().catch((e: unknown) => this.o.logger.warn('the stopped consumer did not disconnect cleanly', { error: e }));
    // A member whose start failed never joined: the group still holds the last one that did.
    this.lastMemberId = old.memberId() ?? this.lastMemberId;
    await new Promise<void>((resolve) => {
      this.wait = { timer: setTimeout(resolve, delayMs), resolve };
    });
    this.wait = undefined;
    if (this.stopping) return;
    const next = this.spawn(this.lastMemberId);
    try {
      await next.start();
    } catch (e) {
      this.crashed(next, e as Error);
      return;
    }
    if (this.stopped.has(next)) return; // it stopped again while joining: already being handled
    this.restarts++;
    const t = this.o.trigger;
    this.o.logger.info('consumer restarted as a new member', { functionName: t.functionName, groupId: t.consumerGroupId, restarts: this.restarts });
    this.o.events.emit('trigger.consumer_restarted', { functionName: t.functionName, groupId: t.consumerGroupId, topic: t.topic, restarts: this.restarts });
  }
}

/**
 * kafkajs's error says the group's coordinator cannot serve it yet: loading, not available, or
 * moved (codes 14–16, under kafkajs's own names in protocol/error.js, not Java's). A
 * KafkaJSNonRetriableError made from one keeps only its message, so the messages count too.
 */
const COORDINATOR_NOT_READY: ReadonlySet<string> = new Set(['GROUP_LOAD_IN_PROGRESS', 'GROUP_COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR_FOR_GROUP']);
const COORDINATOR_NOT_READY_MESSAGES: ReadonlySet<string> = new Set([
  "The coordinator is loading and hence can't process requests for this group",
  'The group coordinator is not available',
  'This is not the correct coordinator for this group',
]);
const coordinatorNotReady = (e: unknown): boolean => hasKafkaErrorType(e, COORDINATOR_NOT_READY) || causeMessages(e).some((m) => COORDINATOR_NOT_READY_MESSAGES.has(m));

/** The messages of kafkajs's errors along the chain of causes. */
function causeMessages(e: unknown): string[] {
  const out: string[] = [];
  for (let c = e as { name?: unknown; message?: unknown; cause?: unknown; originalError?: unknown } | undefined, depth = 0; c && depth < 5; depth++) {
    if (typeof c.message === 'string' && typeof c.name === 'string' && c.name.startsWith('KafkaJS')) out.push(c.message);
    c = (c.cause ?? c.originalError) as typeof c;
  }
  return out;
}
