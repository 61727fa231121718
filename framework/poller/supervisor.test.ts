/**
 * The supervisor's counting and ordering, with stand-in members (what a real consumer does on
 * a crash is proven against a real broker in tests/integration/health.test.ts).
 */
import { createRequire } from 'node:module';
import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { SluiceError } from '../errors.ts';
import type { GroupMember } from '../kafka/member-port.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { Supervisor, type MemberHooks } from './supervisor.ts';

const trigger = { functionName: 'orders', consumerGroupId: 'g', topic: 'orders', path: 'functions.orders.events[0].sluice', maxConsumerRestarts: 2, sessionTimeoutMs: 10_000 };
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

function harness(o: { maxConsumerRestarts?: number; failStart?: (n: number) => boolean; joins?: (n: number) => boolean } = {}) {
  const log: string[] = [];
  const logged: string[] = [];
  const hooks: MemberHooks[] = [];
  const giveUps: SluiceError[] = [];
  const supervisor = new Supervisor({
    trigger: { ...trigger, maxConsumerRestarts: o.maxConsumerRestarts ?? trigger.maxConsumerRestarts },
    events: new Instrumentation(),
    logger: createLogger('test', { write: (l) => logged.push(l), format: 'json' }),
    backoff: { baseMs: 10, capMs: 10 },
    onGiveUp: (e) => giveUps.push(e),
    createMember: (h): GroupMember => {
      const n = hooks.push(h);
      log.push(`create ${n}`);
      return {
        start: async () => {
          log.push(`start ${n}`);
          if (o.failStart?.(n)) throw new Error(`member ${n} could not connect`);
        },
        stop: async () => {
          await tick(5);
          log.push(`stop ${n}`);
        },
        memberId: () => (o.joins?.(n) ?? true ? `member-${n}` : undefined),
      };
    },
  });
  return { supervisor, log, logged, hooks, giveUps, crash: (n: number, message = 'boom', error: Error = new Error(message)) => hooks[n - 1]!.onCrash(error) };
}

/**
 * Waits until the supervisor has answered what `act` did: a new member started, or it gave up. A
 * fixed wait (60 ms) failed in CI when timers ran late on a loaded machine.
 */
async function reacted(h: ReturnType<typeof harness>, act: () => void, timeoutMs = 5_000): Promise<void> {
  const [members, giveUps] = [h.hooks.length, h.giveUps.length];
  act();
  const deadline = Date.now() + timeoutMs;
  while (!((h.hooks.length > members && h.log.at(-1) === `start ${h.hooks.length}`) || h.giveUps.length > giveUps)) {
    if (Date.now() > deadline) throw new Error(`no new member and no give-up within ${timeoutMs} ms: ${h.log.join(', ')}`);
    await tick(5);
  }
  await tick(5); // a start that throws is counted right after it is logged
}

/** kafkajs's protocol error for a code, as its decoders make it (kafkajs/src/protocol/error.js). */
const createErrorFromCode = createRequire(import.meta.url)('kafkajs/src/protocol/error').createErrorFromCode as (code: number) => Error;

describe('Supervisor', () => {
  it('says a coordinator that is still loading is expected, as a warning, and an unknown crash as an error', async () => {
    const h = harness({ maxConsumerRestarts: 5 });
    await h.supervisor.start();
    // kafkajs's own errors: the protocol error (its name for code 14 is GROUP_LOAD_IN_PROGRESS; the
    // check once listed Java's names and never matched), wrapped as its runner retries it, and a
    // KafkaJSNonRetriableError made from one, which keeps only the message (seen on a first start).
    const loading = createErrorFromCode(14);
    h.crash(1, '', new KafkaJSNumberOfRetriesExceeded(loading, { retryCount: 5, retryTime: 100 }));
    await tick(60);
    await reacted(h, () => h.crash(2, '', new KafkaJSNonRetriableError(createErrorFromCode(15))));
    await reacted(h, () => h.crash(3, 'boom'));
    await h.supervisor.stop();
    const lines = h.logged.map((l) => JSON.parse(l) as { level: string; message: string });
    expect(lines.filter((l) => l.message.startsWith("the group's coordinator is not ready yet")).map((l) => l.level)).toEqual(['warn', 'warn']);
    expect(lines.filter((l) => l.message.startsWith('consumer stopped; restarting')).map((l) => l.level)).toEqual(['error']);
  });

  it('replaces a crashed member with a fresh one, after the old one stopped', async () => {
    const h = harness();
    await h.supervisor.start();
    await reacted(h, () => h.crash(1));
    expect(h.log).toEqual(['create 1', 'start 1', 'stop 1', 'create 2', 'start 2']);
    await h.supervisor.stop();
    expect(h.log.at(-1)).toBe('stop 2');
  });

  it('a new member replaces the last one that joined: a start that failed passes the id on', async () => {
    const h = harness({ maxConsumerRestarts: 5, joins: (n) => n !== 2 });
    await h.supervisor.start();
    for (const n of [1, 2, 3]) await reacted(h, () => h.crash(n));
    expect(h.hooks.map((x) => x.replaces)).toEqual([undefined, 'member-1', 'member-1', 'member-3']);
    await h.supervisor.stop();
  });

  it('gives up once after maxConsumerRestarts stops in a row, naming the trigger and the last cause', async () => {
    const h = harness({ maxConsumerRestarts: 2 });
    await h.supervisor.start();
    for (const n of [1, 2, 3]) await reacted(h, () => h.crash(n, `cause ${n}`));
    expect(h.hooks).toHaveLength(3);
    expect(h.giveUps).toHaveLength(1);
    expect(h.giveUps[0]!.code).toBe('TRIGGER_FAILED');
    expect(h.giveUps[0]!.message).toBe(
      'functions.orders.events[0].sluice (orders ← orders, group g): the consumer stopped and 2 restarts in a row did not help. Last cause: cause 3. ' +
        'Fix the cause and start again (maxConsumerRestarts sets how many restarts are tried).',
    );
    h.crash(3, 'again');
    await tick(60);
    expect(h.giveUps).toHaveLength(1);
    await h.supervisor.stop();
  });

  it('a member that made progress resets the count', async () => {
    const h = harness({ maxConsumerRestarts: 1 });
    await h.supervisor.start();
    await reacted(h, () => h.crash(1));
    h.hooks[1]!.onProgress();
    await reacted(h, () => h.crash(2));
    expect(h.giveUps).toEqual([]);
    expect(h.hooks).toHaveLength(3);
    await h.supervisor.stop();
  });

  it('counts a new member that cannot start as another stop; ignores a second crash report of one member', async () => {
    const h = harness({ maxConsumerRestarts: 1, failStart: (n) => n === 2 });
    await h.supervisor.start();
    await reacted(h, () => {
      h.crash(1);
      h.crash(1);
    });
    // Member 2's start fails, and that is the second stop in a row: the give-up follows.
    for (const deadline = Date.now() + 5_000; h.giveUps.length === 0 && Date.now() < deadline; ) await tick(5);
    expect(h.giveUps.map((e) => e.message)).toEqual([expect.stringContaining('Last cause: member 2 could not connect.')]);
    expect(h.hooks).toHaveLength(2);
    await h.supervisor.stop();
  });

  it('maxConsumerRestarts 0 gives up at the first stop', async () => {
    const h = harness({ maxConsumerRestarts: 0 });
    await h.supervisor.start();
    await reacted(h, () => h.crash(1));
    expect(h.giveUps[0]!.message).toContain('the consumer stopped and maxConsumerRestarts is 0.');
    expect(h.hooks).toHaveLength(1);
  });

  it('a stop during the backoff starts no new member', async () => {
    const h = harness();
    await h.supervisor.start();
    h.crash(1);
    await h.supervisor.stop();
    await tick(60);
    expect(h.hooks).toHaveLength(1);
    expect(h.log).toEqual(['create 1', 'start 1', 'stop 1', 'stop 1']);
  });
});
