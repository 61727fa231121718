/**
 * What this member knows of its group: the generation it joined (counted by joins), the
 * partitions it owns in it, and whether a rebalance has begun since. A rebalance is always
 * of one generation: a late error from a batch of an older one (its heartbeat or commit
 * answered after this member had rejoined) says nothing about the current generation.
 */
import type { Instrumentation } from '../../observe/events.ts';

export class GroupState {
  generation = 0;
  memberId = '';
  /** The error that told us a rebalance began; cleared by the next join. */
  rebalance: Error | undefined;
  private rebalanceSince = 0;
  private owned = new Set<string>();

  constructor(private readonly groupId: string, private readonly events: Instrumentation) {}

  joined(memberId: string, assignment: Record<string, number[]>): void {
    this.generation++;
    this.memberId = memberId;
    this.owned = new Set(Object.entries(assignment).flatMap(([t, ps]) => ps.map((p) => `${t}|${p}`)));
    if (this.rebalance) {
      this.events.emit('group.rebalanced', { groupId: this.groupId, memberId, durationMs: Date.now() - this.rebalanceSince, assignment });
    }
    this.rebalance = undefined;
  }

  /** `generation`: the one the error was learned in (a batch's); an older one's is ignored. */
  rebalancing(cause: Error, where: string, generation: number): void {
    if (this.rebalance || generation !== this.generation) return;
    this.rebalance = cause;
    this.rebalanceSince = Date.now();
    this.events.emit('group.rebalance_detected', { groupId: this.groupId, memberId: this.memberId, where, reason: cause.message });
  }

  /** Owned now, and in the same generation the batch was fetched in (or still assigned after a rejoin). */
  owns(topic: string, partition: number, generation: number): boolean {
    return this.owned.has(`${topic}|${partition}`) && (generation === this.generation || !this.rebalance);
  }
}

/** kafkajs error types that mean "rejoin the group" (its own isRebalancing, plus an unknown member). */
export function isRebalance(e: unknown): boolean {
  const type = (e as { type?: string } | null)?.type;
  return type === 'REBALANCE_IN_PROGRESS' || type === 'NOT_COORDINATOR_FOR_GROUP' || type === 'ILLEGAL_GENERATION' || type === 'UNKNOWN_MEMBER_ID';
}
