/**
 * Native `kafka` and `msk` events emulated locally (custom.sluice.emulateNativeEvents) deliver
 * the same event bytes as a Sluice trigger for the same records; `msk` differs only in the
 * envelope AWS gives it (`aws:kafka` and the cluster ARN).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../framework/config/load.ts';
import type { TriggerSpec } from '../../framework/config/types.ts';
import { startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const MSK_ARN = 'arn:aws:kafka:us-east-1:111122223333:cluster/local/abc-1';

describe('native kafka and msk events, emulated', () => {
  const topic = uniqueName('native');
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await deleteTopic(topic);
  });

  it('deliver the same event bytes as a sluice trigger', async () => {
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: JSON.stringify({ i }), headers: [['h', `v${i}`]] })));
    const shared = { topic, batchSize: 5, maximumBatchingWindow: 0, bootstrapServers: brokers() };
    const service = resolveService(
      {
        service: 'native',
        provider: { name: 'aws' },
        // No service-wide brokers: the msk event (which has no bootstrapServers of its own) then reads
        // "the local broker", as npm start runs it, which has no IAM; elsewhere it would use IAM (msk-iam.test.ts).
        custom: { sluice: { emulateNativeEvents: true } },
        functions: {
          viaSluice: { handler: 'functions/recorder.handler', events: [{ sluice: { ...shared, consumerGroupId: uniqueName('g-sluice') } }] },
          viaKafka: { handler: 'functions/recorder.handler', events: [{ kafka: { ...shared, consumerGroupId: uniqueName('g-kafka'), accessConfigurations: { saslScram512Auth: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:not-resolved' } } }] },
          viaMsk: { handler: 'functions/recorder.handler', events: [{ msk: { arn: MSK_ARN, topic, batchSize: 5, maximumBatchingWindow: 0, consumerGroupId: uniqueName('g-msk') } }] },
        },
      },
      { rootDir: '.', env: {} },
    );
    const run = async (t: TriggerSpec) => {
      const { environment: _env, functionName: _fn, handler: _handler, ...spec } = t;
      const h = await startRecorder({ ...spec, bootstrapServers: t.bootstrapServers ?? brokers() });
      harnesses.push(h);
      await waitFor(`${t.path} committed`, async () => (await offsets(t.consumerGroupId, topic))[0]!.committed === 20, 60_000);
      return h.seen().map((s) => s.event);
    };
    expect(service.triggers.map((t) => t.access)).toEqual([undefined, undefined, undefined]);
    const [sluice, kafka, msk] = await Promise.all(service.triggers.map(run));

    console.log(`[native] ${sluice!.length} sluice events, ${kafka!.length} kafka events, ${msk!.length} msk events`);
    expect(sluice!.length).toBe(4);
    expect(kafka!.map((e) => JSON.stringify(e))).toEqual(sluice!.map((e) => JSON.stringify(e)));
    for (const [i, e] of msk!.entries()) {
      expect(e).toEqual({ eventSource: 'aws:kafka', eventSourceArn: MSK_ARN, bootstrapServers: brokers().join(','), records: sluice![i]!.records });
    }
  });
});
