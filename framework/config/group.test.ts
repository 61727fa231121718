import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxTimeoutFor } from '../chunking/budget.ts';
import { GROUP_DEFAULTS, groupSettings, type GroupContext } from './group.ts';
import type { GroupTuningInput } from './schema.ts';

const AT = 'functions.orders.events[0].sluice';
const context: GroupContext = { path: AT, functionName: 'orders', timeoutMs: 30_000 };
const settle = (event: GroupTuningInput, service: GroupTuningInput = {}, timeoutMs = 30_000) =>
  groupSettings(event, service, { ...context, timeoutMs });
const problemsOf = (event: GroupTuningInput, service: GroupTuningInput = {}, timeoutMs = 30_000) =>
  settle(event, service, timeoutMs).problems;

describe('consumer-group settings', () => {
  it('defaults to 300000 / 30000 / 3000 / 4, which pass every rule', () => {
    expect(GROUP_DEFAULTS).toEqual({ maxPollIntervalMs: 300_000, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, concurrency: 4, maxConsumerRestarts: 8 });
    expect(settle({})).toEqual({ settings: GROUP_DEFAULTS, problems: [] });
  });

  it('takes each value from the event, else custom.sluice, else the default', () => {
    const service = { maxPollIntervalMs: 600_000, sessionTimeoutMs: 45_000, concurrency: 8, maxConsumerRestarts: 2 };
    expect(settle({ sessionTimeoutMs: 20_000, concurrency: 1 }, service).settings).toEqual({
      maxPollIntervalMs: 600_000, // custom.sluice
      sessionTimeoutMs: 20_000, // event over custom.sluice
      heartbeatIntervalMs: 3_000, // default
      concurrency: 1, // event over custom.sluice
      maxConsumerRestarts: 2, // custom.sluice
    });
  });

  describe('heartbeatIntervalMs below a third of sessionTimeoutMs', () => {
    it('names both values and the exact limits on either side', () => {
      expect(problemsOf({ heartbeatIntervalMs: 5_000, sessionTimeoutMs: 10_000 })).toEqual([
        `${AT}: heartbeatIntervalMs 5000 is not below a third of sessionTimeoutMs 10000. ` +
          'Lower heartbeatIntervalMs to at most 3333, or raise sessionTimeoutMs to at least 15001.',
      ]);
    });

    it('refuses exactly a third and accepts just below it', () => {
      expect(problemsOf({ heartbeatIntervalMs: 3_000, sessionTimeoutMs: 9_000 })).toEqual([
        `${AT}: heartbeatIntervalMs 3000 is not below a third of sessionTimeoutMs 9000. ` +
          'Lower heartbeatIntervalMs to at most 2999, or raise sessionTimeoutMs to at least 9001.',
      ]);
      expect(problemsOf({ heartbeatIntervalMs: 3_000, sessionTimeoutMs: 9_001 })).toEqual([]);
    });

    it('says where a value was set when it is not on the event', () => {
      expect(problemsOf({ heartbeatIntervalMs: 12_000 })).toEqual([
        `${AT}: heartbeatIntervalMs 12000 is not below a third of sessionTimeoutMs 30000 (default). ` +
          'Lower heartbeatIntervalMs to at most 9999, or raise sessionTimeoutMs to at least 36001.',
      ]);
      expect(problemsOf({ sessionTimeoutMs: 6_000 }, { heartbeatIntervalMs: 2_000 })).toEqual([
        `${AT}: heartbeatIntervalMs 2000 (custom.sluice) is not below a third of sessionTimeoutMs 6000. ` +
          'Lower heartbeatIntervalMs to at most 1999, or raise sessionTimeoutMs to at least 6001.',
      ]);
      expect(problemsOf({}, { heartbeatIntervalMs: 2_000, sessionTimeoutMs: 6_000 })).toEqual([
        'custom.sluice: heartbeatIntervalMs 2000 is not below a third of sessionTimeoutMs 6000. ' +
          'Lower heartbeatIntervalMs to at most 1999, or raise sessionTimeoutMs to at least 6001.',
      ]);
    });

    it('does not suggest a session timeout above the allowed maximum', () => {
      expect(problemsOf({ heartbeatIntervalMs: 1_200_000, sessionTimeoutMs: 3_600_000, maxPollIntervalMs: 3_600_000 })).toEqual([
        `${AT}: heartbeatIntervalMs 1200000 is not below a third of sessionTimeoutMs 3600000. Lower heartbeatIntervalMs to at most 1199999.`,
      ]);
    });

    it('suggests values that pass the rule', () => {
      fc.assert(
        fc.property(fc.integer({ min: 100, max: 1_200_000 }), fc.integer({ min: 1_000, max: 3_600_000 }), (heartbeat, session) => {
          const [line] = problemsOf({ heartbeatIntervalMs: heartbeat, sessionTimeoutMs: session, maxPollIntervalMs: 3_600_000 }, {}, 1_000);
          expect(line !== undefined).toBe(heartbeat * 3 >= session);
          const lower = /at most (\d+)/.exec(line ?? '')?.[1];
          if (lower !== undefined) expect(Number(lower) * 3 < session && (Number(lower) + 1) * 3 >= session).toBe(true);
          const raise = /at least (\d+)/.exec(line ?? '')?.[1];
          if (raise !== undefined) expect(heartbeat * 3 < Number(raise) && heartbeat * 3 >= Number(raise) - 1).toBe(true);
        }),
      );
    });
  });

  describe('the function timeout fits in maxPollIntervalMs with the safety margin', () => {
    it('names the timeout, the interval and where it was set, the margin and both fixes', () => {
      expect(problemsOf({ maxPollIntervalMs: 300_000 }, {}, 300_000)).toEqual([
        `functions.orders: timeout 300 s does not fit in maxPollIntervalMs 300000 (${AT}) with its safety margin of 30000 ms and a start window of 15000 ms after each fetch: ` +
          "an invocation could outlast the member's poll interval and get it removed from the group. " +
          "Raise maxPollIntervalMs to at least 352941, or lower the function's timeout to at most 255 s.",
      ]);
      expect(problemsOf({}, {}, 900_000)[0]).toBe(
        'functions.orders: timeout 900 s does not fit in maxPollIntervalMs 300000 (default) with its safety margin of 30000 ms and a start window of 15000 ms after each fetch: ' +
          "an invocation could outlast the member's poll interval and get it removed from the group. " +
          "Raise maxPollIntervalMs to at least 1058823, or lower the function's timeout to at most 255 s.",
      );
      expect(problemsOf({}, { maxPollIntervalMs: 60_000 }, 60_000)[0]).toContain(
        'functions.orders: timeout 60 s does not fit in maxPollIntervalMs 60000 (custom.sluice) with its safety margin of 6000 ms and a start window of 3000 ms',
      );
    });

    it('accepts a timeout that fits exactly, refuses one a millisecond longer', () => {
      expect(problemsOf({ maxPollIntervalMs: 300_000 }, {}, 255_000)).toEqual([]);
      expect(problemsOf({ maxPollIntervalMs: 300_000 }, {}, 255_001)[0]).toContain(
        "timeout 255.001 s does not fit in maxPollIntervalMs 300000 (functions.orders.events[0].sluice) with its safety margin of 30000 ms and a start window of 15000 ms",
      );
      expect(problemsOf({ maxPollIntervalMs: 352_941 }, {}, 300_000)).toEqual([]);
      expect(problemsOf({ maxPollIntervalMs: 352_940 }, {}, 300_000)).toHaveLength(1);
    });

    it('offers only the fixes that are possible', () => {
      const small = { maxPollIntervalMs: 1_000, sessionTimeoutMs: 1_000, heartbeatIntervalMs: 100 };
      expect(problemsOf(small, {}, 6_000)).toEqual([
        `functions.orders: timeout 6 s does not fit in maxPollIntervalMs 1000 (${AT}) with its safety margin of 1000 ms and a start window of 2000 ms after each fetch: ` +
          "an invocation could outlast the member's poll interval and get it removed from the group. Raise maxPollIntervalMs to at least 9000.",
      ]);
      expect(problemsOf({ maxPollIntervalMs: 600_000 }, {}, 4_000_000)[0]).toMatch(
        / get it removed from the group\. Lower the function's timeout to at most 510 s\.$/,
      );
      expect(problemsOf(small, {}, 4_000_000)[0]).toMatch(
        / get it removed from the group\. Lower the function's timeout to at most 3060 s and raise maxPollIntervalMs to 3600000\.$/,
      );
      expect(maxTimeoutFor(3_600_000)).toBe(3_060_000);
    });
  });

  describe('sessionTimeoutMs at most maxPollIntervalMs', () => {
    it('names both values and what to change', () => {
      expect(problemsOf({ sessionTimeoutMs: 60_000 }, { maxPollIntervalMs: 30_000 }, 6_000)).toEqual([
        `${AT}: sessionTimeoutMs 60000 is above maxPollIntervalMs 30000 (custom.sluice): Kafka needs the rebalance timeout ` +
          '(maxPollIntervalMs) to be at least the session timeout. Lower sessionTimeoutMs to at most 30000, or raise maxPollIntervalMs to at least 60000.',
      ]);
      expect(problemsOf({ sessionTimeoutMs: 30_000, maxPollIntervalMs: 30_000 }, {}, 6_000)).toEqual([]);
    });
  });

  it('reports every broken rule, one line each', () => {
    expect(problemsOf({ maxPollIntervalMs: 10_000, sessionTimeoutMs: 20_000, heartbeatIntervalMs: 7_000 }, {}, 30_000).map((p) => p.split(':')[1])).toEqual([
      ' heartbeatIntervalMs 7000 is not below a third of sessionTimeoutMs 20000. Lower heartbeatIntervalMs to at most 6666, or raise sessionTimeoutMs to at least 21001.',
      ' timeout 30 s does not fit in maxPollIntervalMs 10000 (functions.orders.events[0].sluice) with its safety margin of 1000 ms and a start window of 2000 ms after each fetch',
      ' sessionTimeoutMs 20000 is above maxPollIntervalMs 10000',
    ]);
  });

  it('applies values but checks no rule when custom.sluice is invalid (already reported)', () => {
    expect(groupSettings({ heartbeatIntervalMs: 20_000 }, undefined, { ...context, timeoutMs: 900_000 })).toEqual({
      settings: { ...GROUP_DEFAULTS, heartbeatIntervalMs: 20_000 },
      problems: [],
    });
  });
});
