/**
 * A rejoin from inside a fetch while chunks run (issue 24, item 2): kafkajs rejoins the group from
 * inside a fetch (consumerGroup.fetch -> recoverFromFetch -> joinAndSync) when the fetch meets a
 * partition its assignment did not know, or a stale leader, while chunks of other brokers'
 * batches still run; if members joined or left meanwhile, a partition whose chunk still ran here
 * could be assigned to another member: two members on one partition. Forced here, round after
 * round: a member joins while the topic gains a partition, the node leading a partition stops (its
 * leaderships move, and it is often the group's coordinator), a member leaves while that node is
 * down, the node starts again; chunks take a second. The oracle counts overlaps of two members
 * inside invocations of one partition, every record and duplicate, and the joins a member made
 * with batches of its own still running (only a rejoin from inside a fetch has any).
 *
 * Moving leaders alone never made kafkajs rejoin there (stopped nodes, and a preferred leader
 * election with the old leaders up: 0 such joins, no fetch error): Kafka serves a consumer's
 * Fetch v11 from a follower, and a stopped node's connections close first. A partition-count
 * change does. Every step is bounded (MEMBER_STEP_MS in support/scenario.ts, NODE_STEP_MS here):
 * a hang fails the test naming the step instead of stalling the tier, unless it starves the event
 * loop: the hang that once took this scenario out of the tier did (a member stopped right after a
 * node left spun in kafkajs's fetch manager for ever; tests/regressions/stopped-fetch-manager-builds-no-fetchers.test.ts).
 */
import { describe, it } from 'vitest';
import { leaderOf } from '../../infra/kafka/topology.ts';
import { withAdmin } from '../support/kafka.ts';
import { expectSurvived } from './support/expect.ts';
import { runScenario } from './support/scenario.ts';
import { within } from './support/within.ts';

const ROUNDS = 6;
const PARTITIONS = 6;
/** A node's clean stop or its start (a fresh JVM on two busy cores). */
const NODE_STEP_MS = 120_000;

describe('fault: leaders move and partitions are added while members join and leave, round after round', () => {
  it('never two members on a partition, nothing lost, every duplicate explained', { timeout: 900_000 }, async () => {
    const t0 = Date.now();
    const say = (m: string) => console.log(`[rejoin-inside-fetch] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${m}`);
    let rounds = 0;
    const result = await runScenario({
      // The load lasts past the six rounds (up to 30 s each here), or a round waits for records
      // that are never produced: 3,000 at 100 a second ran out in round 3, and the round's wait
      // for 100 more records sat silent for its 120 s. Half the rate of the other scenarios:
      // chunks of a second give one member about 120 records a second. Two members stay for the
      // whole test (the second one a follower, whose rejoins from inside a fetch are the more
      // frequent), a third comes and goes each round.
      name: 'rejoin-inside-fetch', partitions: PARTITIONS, records: 12_000, ratePerSecond: 50, members: 2, handlerMs: 1_000,
      fault: async (ctx) => {
        ctx.began();
        for (let round = 1; round <= ROUNDS; round++) {
          // One more partition each round, while a member joins: a member whose metadata refresh
          // (every 30 s) finds a partition its assignment did not know rejoins from inside that
          // fetch, while chunks of the other brokers' batches run.
          await Promise.all([ctx.addMember(), within('adding a partition', NODE_STEP_MS, withAdmin((a) => a.createPartitions(ctx.topic, PARTITIONS + round)))]);
          const node = await leaderOf(ctx.cluster.bootstrap, ctx.topic, round % PARTITIONS);
          say(`round ${round}: member added, ${PARTITIONS + round} partitions; stopping node ${node} (leader of partition ${round % PARTITIONS})`);
          await within(`stopping node ${node}`, NODE_STEP_MS, ctx.cluster.stop(node));
          say(`round ${round}: node ${node} stopped; removing the newest member`);
          await ctx.removeMember();
          say(`round ${round}: member removed`);
          await ctx.waitProcessed(ctx.processed() + 100);
          await within(`starting node ${node}`, NODE_STEP_MS, ctx.cluster.start(node));
          await ctx.cluster.waitHealthy([ctx.topic], NODE_STEP_MS); // its replicas in sync: it can lead again
          say(`round ${round}: node ${node} started`);
          rounds = round;
        }
      },
    });
    console.log(`[rejoin-inside-fetch] ${rounds} rounds: ${result.joinsWithBatchesRunning} joins with batches running, ${result.overlaps.length} overlaps, ${result.lost.length} lost, ${result.duplicates} duplicates`);
    expectSurvived(result);
  });
});
