/**
 * One consumer group per trigger. A function with two `sluice` triggers used to put both in
 * `sluice-<service>-<function>`: kafkajs's assigner assigns only the leader's own topics, so
 * one topic was never consumed and part of the other was dropped, with no error.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SelfManagedKafkaEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../framework/config/load.ts';
import { createLocalInvoker } from '../../framework/invoke/local.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { runService, type RunningService } from '../../framework/poller/service-runner.ts';
import { FIXTURES, recorderTrigger } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, testLogger, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

describe('consumer groups of a function with several triggers', () => {
  const [orders, returns] = [uniqueName('orders'), uniqueName('returns')];
  const service = uniqueName('svc');
  let running: RunningService | undefined;
  const invoker = createLocalInvoker({
    rootDir: FIXTURES, service, stage: 'test', region: 'us-east-1', logger: testLogger, output: () => undefined,
    functions: [{ functionName: 'recorder', handler: 'functions/recorder.handler', memorySizeMb: 256, timeoutMs: 6_000, environment: { RECORD_FILE: join(mkdtempSync(join(tmpdir(), 'sluice-groups-')), 'seen.jsonl') } }],
  });
  afterAll(async () => {
    await running?.stop();
    await invoker.close();
    await deleteTopic(orders);
    await deleteTopic(returns);
  });

  it('consumes both topics fully, each in a group of its own on the broker', async () => {
    const recordFile = join(mkdtempSync(join(tmpdir(), 'sluice-groups-')), 'seen.jsonl');
    const spec = resolveService(
      {
        service,
        provider: { name: 'aws' },
        functions: {
          recorder: {
            handler: 'functions/recorder.handler',
            environment: { RECORD_FILE: recordFile },
            events: [orders, returns].map((topic) => ({ sluice: { topic, bootstrapServers: brokers().join(','), maximumBatchingWindow: 0 } })),
          },
        },
      },
      { rootDir: FIXTURES, env: {} },
    );
    const groups = spec.triggers.map((t) => t.consumerGroupId);
    expect(groups).toEqual([`sluice-${service}-recorder-${orders}`, `sluice-${service}-recorder-${returns}`]);

    await createTopic(orders, 3);
    await createTopic(returns, 3);
    await produce(orders, Array.from({ length: 90 }, (_, i) => ({ partition: i % 3, key: null, value: Buffer.from(`o${i}`) })));
    await produce(returns, Array.from({ length: 60 }, (_, i) => ({ partition: i % 3, key: null, value: Buffer.from(`r${i}`) })));

    const local = createLocalInvoker({
      rootDir: FIXTURES, service, stage: 'test', region: 'us-east-1', logger: testLogger, output: () => undefined,
      functions: [{ functionName: 'recorder', handler: 'functions/recorder.handler', memorySizeMb: 256, timeoutMs: 6_000, environment: { RECORD_FILE: recordFile } }],
    });
    running = await runService({ triggers: spec.triggers, invoker: local, logger: testLogger, events: new Instrumentation() });
    const drained = async (group: string, topic: string, total: number) => (await offsets(group, topic)).reduce((n, p) => n + Math.max(p.committed, 0), 0) === total;
    await waitFor('both topics committed to the log end', async () => (await drained(groups[0]!, orders, 90)) && (await drained(groups[1]!, returns, 60)), 60_000);

    const seen = readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { event: SelfManagedKafkaEvent }).event);
    const values = seen.flatMap((e) => Object.values(e.records).flat()).map((r) => Buffer.from(r.value!, 'base64').toString());
    expect(values.filter((v) => v.startsWith('o')).sort()).toEqual(Array.from({ length: 90 }, (_, i) => `o${i}`).sort());
    expect(values.filter((v) => v.startsWith('r')).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `r${i}`).sort());
    expect(values).toHaveLength(150);

    const described = await withAdmin((a) => Promise.all(groups.map((g) => a.describeGroup(g))));
    console.log(`[groups] ${groups.map((g, i) => `${g}: ${described[i]!.state}, ${described[i]!.members.length} member`).join('; ')}`);
    for (const [i, topic] of [orders, returns].entries()) {
      expect(described[i]!.state).toBe('Stable');
      expect(described[i]!.members.map((m) => Object.keys(m.assignment))).toEqual([[topic]]);
    }
    await running.stop();
    running = undefined;
    await local.close();
  });

  it('refuses at start two triggers with one group id, naming both paths (as SLUICE_TRIGGERS could carry them)', async () => {
    const file = join(tmpdir(), 'unused.jsonl');
    const a = recorderTrigger({ topic: orders, consumerGroupId: 'shared', path: 'functions.a.events[0].sluice' }, file);
    const b = recorderTrigger({ topic: returns, consumerGroupId: 'shared', path: 'functions.b.events[0].sluice' }, file);
    await expect(runService({ triggers: [a, b], invoker, logger: testLogger, events: new Instrumentation() })).rejects.toThrow(
      'functions.a.events[0].sluice and functions.b.events[0].sluice: all use consumer group "shared"',
    );
  });
});
