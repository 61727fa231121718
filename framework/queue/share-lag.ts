/**
 * Queue mode's backlog, read from the broker every few seconds by each poller for the whole share
 * group: per partition, the records not acknowledged yet, those in flight included
 * (DescribeShareGroupOffsets v1, as `sluice status` reads it). It feeds `sluice_share_group_lag`
 * and the trigger's OffsetLag, which the deployed service scales on (plugin/deploy/scaling.ts):
 * in a share group any poller takes records of any partition, so the backlog, not a partition's
 * lag, says how many pollers help.
 */
import type { Logger } from '../observe/logger.ts';

/** Often enough for a Prometheus scrape or the 60 s CloudWatch line; two small requests each time. */
export const SHARE_LAG_PERIOD_MS = 5_000;

export interface PartitionBacklog {
  partition: number;
  /** Null: the broker did not know it at this reading (the last known one stands). */
  lag: number | null;
}

/** A reading as the queue.lag event carries it: every partition of the topic, each with its lag or null. */
export function backlogOf(partitions: ReadonlyArray<{ partition: number; lag: number | null }>): PartitionBacklog[] {
  return partitions.map((p) => ({ partition: p.partition, lag: p.lag }));
}

export interface ShareLagWatch {
  /** Ends the readings; resolves once one under way has ended. */
  stop(): Promise<void>;
}

/**
 * Reads now, then every `periodMs` after the previous reading ended (never two at once). A reading
 * that fails is skipped: the first failure in a row is a warning, the next ones debug lines.
 */
export function watchShareLag(o: {
  read(): Promise<PartitionBacklog[]>;
  report(partitions: PartitionBacklog[]): void;
  logger: Logger;
  periodMs?: number;
}): ShareLagWatch {
  const periodMs = o.periodMs ?? SHARE_LAG_PERIOD_MS;
  let stopped = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> = Promise.resolve();

  const readOnce = async (): Promise<void> => {
    try {
      const partitions = await o.read();
      if (stopped) return;
      failing = false;
      o.report(partitions);
    } catch (e) {
      if (stopped) return;
      const message = `queue mode: the share group's backlog could not be read (sluice_share_group_lag and OffsetLag keep their last value); trying again every ${periodMs / 1000} s`;
      if (failing) o.logger.debug(message, { error: e });
      else o.logger.warn(message, { error: e });
      failing = true;
    }
  };
  const next = (): void => {
    if (stopped) return;
    reading = readOnce().finally(() => {
      if (stopped) return;
      timer = setTimeout(next, periodMs);
      timer.unref();
    });
  };
  next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await reading;
    },
  };
}
