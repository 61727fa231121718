/**
 * Within one member: one batch of a partition at a time, and never again a record this member
 * already committed past. kafkajs runs a fetch loop per broker; when a partition's leadership
 * moves, the new leader's loop can fetch the partition (from the offset kafkajs had resolved
 * then) while the old loop's batch of it is still being processed, and a rejoin can read the
 * committed offset just before this member's last commit lands. Either way the member is handed
 * records it has already processed and committed. Serialising a partition's batches keeps its
 * work in order; dropping what this member committed past keeps those records from being
 * invoked twice. Both only ever skip work that succeeded, or reached its destination, and was
 * committed: nothing is lost. What it committed is forgotten when the partition is assigned away,
 * and when the partition's log end is below it (the topic was deleted and created again, or an
 * unclean leader election truncated the log): skipping by it would skip records of a new log.
 */
export class PartitionOrder {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly committedNext = new Map<string, number>();

  /** Runs `work` once the partition's previous batch (in this member) has ended. */
  async serialize<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(key, mine);
    try {
      if (before) await before;
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === mine) this.tails.delete(key);
    }
  }

  /** This member committed `next` (the next offset to read) for the partition. */
  committed(key: string, next: number): void {
    this.committedNext.set(key, Math.max(next, this.committedNext.get(key) ?? next));
  }

  /** What this member committed no longer describes the partition's log (assigned away, or the log is shorter). */
  forget(key: string): void {
    this.committedNext.delete(key);
  }

  /** Partitions with a commit remembered. */
  keys(): string[] {
    return [...this.committedNext.keys()];
  }

  /** The next offset this member committed for the partition, if any: records below it are done. */
  doneBelow(key: string): number | undefined {
    return this.committedNext.get(key);
  }
}
