/**
 * A queue-mode poller killed -9 while it holds acquired records: its share session and membership
 * die with it, and its records come back to the other member once their acquisition locks run out
 * (the group's share.record.lock.duration.ms, 15 s here). 0 lost; each record it held and had not
 * had accepted is delivered again, explained by the kill.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../support/kafka.ts';
import { runQueueScenario } from '../support/queue-scenario.ts';
import { expectQueueSurvived } from './expect.ts';

describe('fault (queue mode): a poller killed -9 with records acquired', () => {
  it('loses nothing: what it held comes back after the lock, every duplicate explained', async () => {
    let heldAtKill = 0;
    const result = await runQueueScenario({
      name: 'poller-kill', partitions: 3, records: 2_000, ratePerSecond: 100, members: 1, processMember: true, handlerMs: 300,
      fault: async (ctx) => {
        const p1 = ctx.processMember();
        await waitFor('the process member inside invocations', () => p1.inFlight() >= 2, 60_000, 20);
        heldAtKill = p1.inFlight();
        await p1.kill();
      },
    });
    expectQueueSurvived(result);
    // The kill met records in hand: they came back, each once at least.
    expect(heldAtKill).toBeGreaterThanOrEqual(2);
    expect(result.causes['held by a poller killed -9'] ?? 0).toBeGreaterThan(0);
  });
});
