/**
 * Waits until every partition of new topics has a leader. kafkajs's own wait (createTopics'
 * waitForLeaders) retries only LEADER_NOT_AVAILABLE, and a busy KRaft broker can first answer a
 * topic it has just created with UNKNOWN_TOPIC_OR_PARTITION ("This server does not host this
 * topic-partition"): `npm start` on a loaded machine, or a topic created again right after it
 * was deleted, then failed. Both answers mean "not yet" here, until `withinMs` has passed.
 */

/** What this reads of kafkajs's Admin. */
export interface TopicMetadataSource {
  fetchTopicMetadata(o: { topics: string[] }): Promise<{ topics: Array<{ name: string; partitions: Array<{ partitionId: number; leader: number; partitionErrorCode: number }> }> }>;
}

const NOT_YET = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);

export async function waitForLeaders(admin: TopicMetadataSource, topics: string[], withinMs = 30_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const problem = await leaderless(admin, topics);
    if (!problem) return;
    if (Date.now() >= deadline) throw new Error(`topics ${topics.join(', ')} have no leader after ${withinMs / 1000} s: ${problem}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What still lacks a leader, or undefined when every partition has one. */
async function leaderless(admin: TopicMetadataSource, topics: string[]): Promise<string | undefined> {
  try {
    const { topics: found } = await admin.fetchTopicMetadata({ topics });
    const waiting = found.flatMap((t) => t.partitions.filter((p) => p.leader < 0 || p.partitionErrorCode !== 0).map((p) => `${t.name}-${p.partitionId}`));
    if (found.length < topics.length) return `${topics.length - found.length} not in the metadata yet`;
    return waiting.length ? `${waiting.join(', ')} without a leader` : undefined;
  } catch (e) {
    const type = (e as { type?: string }).type;
    if (type && NOT_YET.has(type)) return type;
    throw e;
  }
}
