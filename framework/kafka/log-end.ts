/**
 * A partition's log end as ListOffsets answers it, for the checks that would otherwise take a fetch's
 * lower log end for a new log (a recreated topic, a truncated log). Right after a leader change the
 * new leader's high watermark can trail the old one's (KAFKA-2334); ListOffsets never answers a
 * trailing end: until the leader has caught up it refuses, with LEADER_NOT_AVAILABLE to kafkajs's
 * ListOffsets v0–3 (OFFSET_NOT_AVAILABLE from v5, KIP-207), which kafkajs's admin does not retry.
 * So what it refuses as retriable is asked again, a little later each time, within `withinMs`:
 * the batch that asks sends no heartbeat meanwhile. Past that, or on an error that is not
 * retriable, it rejects, and the caller believes the fetch (a record may run twice, none is skipped).
 */
export async function logEndWithin(read: () => Promise<number>, withinMs: number, now: () => number = Date.now): Promise<number> {
  const deadline = now() + withinMs;
  let pauseMs = 50;
  for (;;) {
    const left = deadline - now();
    if (left <= 0) throw new Error(`no log end from ListOffsets within ${withinMs} ms`);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`no log end from ListOffsets within ${withinMs} ms`), { late: true })), left);
    });
    try {
      return await Promise.race([read(), late]);
    } catch (e) {
      if ((e as { late?: boolean }).late || (e as { retriable?: boolean }).retriable !== true) throw e;
    } finally {
      clearTimeout(timer);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pauseMs, Math.max(0, deadline - now()))));
    pauseMs *= 2;
  }
}

/**
 * A trigger's log ends, for its members, its parallel state and its retry state. `of(partition,
 * newestBelow)`: `newestBelow` is the newest timestamp of the batch's records below the offset in
 * question; newer than any record this poller has handed on of the partition (`seen`), they are not
 * records it had, so the log is new (-1) without asking: a recreated log could otherwise grow past
 * that offset while ListOffsets is asked, and pass for the old one. A producer that writes the new log
 * with timestamps older than the old log's is left to ListOffsets.
 */
export class LogEnds {
  private readonly newestSeen = new Map<number, number>();

  constructor(private readonly listOffsets: (partition: number) => Promise<number>, private readonly withinMs: number) {}

  of(partition: number, newestBelow?: number): Promise<number> {
    const seen = this.newestSeen.get(partition);
    if (newestBelow !== undefined && seen !== undefined && newestBelow > seen) return Promise.resolve(-1);
    return logEndWithin(() => this.listOffsets(partition), this.withinMs);
  }

  /** The batch's records were handed on: a later fetch of them again is not taken for a new log's. */
  seen(partition: number, records: ReadonlyArray<{ offset: number; timestamp: number }>): void {
    const newest = newestOf(records);
    if (newest !== undefined && newest > (this.newestSeen.get(partition) ?? -Infinity)) this.newestSeen.set(partition, newest);
  }
}

/** The newest timestamp of the records below offset `below` (a loop: a batch can hold more records than a spread's arguments). */
export function newestOf(records: ReadonlyArray<{ offset: number; timestamp: number }>, below = Infinity): number | undefined {
  let newest: number | undefined;
  for (const r of records) if (r.offset < below && (newest === undefined || r.timestamp > newest)) newest = r.timestamp;
  return newest;
}
