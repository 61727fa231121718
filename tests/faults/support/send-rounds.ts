/** Producers under a fault: rounds of distinct values sent until told to stop, and what of them is in the log. */
import { leaderOf } from '../../../infra/kafka/topology.ts';
import { offsets, readTopic, uniqueName } from '../../support/kafka.ts';
import type { ClusterHandle } from '../../../infra/kafka/cluster.ts';

export type Sender = (values: string[]) => Promise<void>;

/** Sends rounds of `size` distinct values until `done`; returns the values of rounds that resolved. */
export async function sendRounds(send: Sender, prefix: string, size: number, done: () => boolean): Promise<{ confirmed: string[]; failedRounds: number }> {
  const confirmed: string[] = [];
  let failedRounds = 0;
  for (let round = 0; !done(); round++) {
    const values = Array.from({ length: size }, (_, i) => `${prefix}-${round}-${i}`);
    try {
      await send(values);
      confirmed.push(...values);
    } catch {
      failedRounds++; // the caller would send it again; what it wrote is not counted as confirmed
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { confirmed, failedRounds };
}

export async function missingFrom(topic: string, confirmed: string[]): Promise<string[]> {
  const end = (await offsets(uniqueName('nobody'), topic)).reduce((n, p) => n + p.logEnd, 0);
  const inLog = new Set((await readTopic(topic, end, 60_000)).map((r) => r.value!.toString()));
  return confirmed.filter((v) => !inLog.has(v));
}

/** How many times each value is in the log: a value written twice shows as 2. */
export async function copiesIn(topic: string): Promise<Map<string, number>> {
  const end = (await offsets(uniqueName('nobody'), topic)).reduce((n, p) => n + p.logEnd, 0);
  const copies = new Map<string, number>();
  for (const r of await readTopic(topic, end, 60_000)) copies.set(r.value!.toString(), (copies.get(r.value!.toString()) ?? 0) + 1);
  return copies;
}

/** The fault of the producer tests: the leader of `topic`'s partition 0, then of 1, killed -9 and restarted, each time once `topics` are healthy again. */
export async function killLeadersTwice(cluster: ClusterHandle, topic: string, topics: string[]): Promise<void> {
  for (const partition of [0, 1]) {
    const leader = await leaderOf(cluster.bootstrap, topic, partition);
    await new Promise((r) => setTimeout(r, 2_000));
    await cluster.kill(leader);
    await new Promise((r) => setTimeout(r, 4_000));
    await cluster.start(leader);
    await cluster.waitHealthy(topics, 120_000);
  }
}
