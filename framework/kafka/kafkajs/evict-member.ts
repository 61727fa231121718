/**
 * Removes a member this process had, and no longer runs, from its group: what the member's own
 * LeaveGroup would have done had the coordinator been reachable when it stopped.
 *
 * Why: a consumer that crashes while its broker is down cannot leave. The coordinator restores
 * the group with that member in it, and the replacement's join then waits until the old
 * member's session expires (a whole session timeout) before anything is assigned. Leaving on
 * its behalf first lets the replacement's join complete at once. The caller guarantees the old
 * member's batches have ended, so nothing of it still runs.
 *
 * kafkajs sends LeaveGroup only for a consumer's own member, so this goes through its private
 * cluster (private-cluster.ts). Should that be gone, eviction is skipped with a warning and the
 * group waits out the session as before (slower, never wrong).
 */
import type { Kafka } from 'kafkajs';
import type { Logger } from '../../observe/logger.ts';
import { privateCluster } from './private-cluster.ts';

const RETRY_MS = 250;

export type Eviction = 'evicted' | 'already-gone' | 'skipped';

/** Best effort within `withinMs` (past the member's session the coordinator expires it anyway). */
export async function evictMember(kafka: Kafka, groupId: string, memberId: string, withinMs: number, logger: Logger): Promise<Eviction> {
  const cluster = privateCluster(kafka);
  if (!cluster) {
    logger.warn('cannot leave the group for the stopped member (kafkajs changed); the group waits out its session', { groupId, memberId });
    return 'skipped';
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${withinMs} ms`)), withinMs);
  });
  let aborted = false;
  const leave = async (): Promise<Eviction> => {
    await cluster.connect();
    for (;;) {
      try {
        const coordinator = await cluster.findGroupCoordinator({ groupId });
        if (aborted) return 'skipped'; // past the deadline: the new member may have joined by now
        await coordinator.leaveGroup({ groupId, memberId });
        return 'evicted';
      } catch (e) {
        if ((e as { type?: string }).type === 'UNKNOWN_MEMBER_ID') return 'already-gone';
        // The coordinator may still be loading the group after its broker came back.
        if (aborted) throw e;
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  };
  const leaving = leave();
  try {
    return await Promise.race([leaving, timedOut]);
  } catch (e) {
    logger.debug('could not leave the group for the stopped member; the group waits out its session', { groupId, memberId, error: e });
    return 'skipped';
  } finally {
    aborted = true;
    clearTimeout(timer);
    // Disconnect once the attempt has settled: kafkajs may still be connecting inside it.
    void leaving.catch(() => undefined).finally(() => cluster.disconnect().catch(() => undefined));
  }
}
