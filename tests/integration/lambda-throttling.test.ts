/**
 * The lambda invoker never charges an attempt for an invocation that never reached the
 * function. Before, throttling past the invoker's quick retries counted as a failed attempt:
 * with maximumRetryAttempts 0, records that never ran went straight to the destination.
 * Against a stand-in Lambda endpoint (the Lambda API's Invoke and GetFunction) answering 429
 * for 20 s, then 200.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SelfManagedKafkaEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { createLambdaInvoker } from '../../framework/invoke/lambda.ts';
import { Instrumentation, type SluiceEvents } from '../../framework/observe/events.ts';
import { runService, type RunningService } from '../../framework/poller/service-runner.ts';
import { failurePolicy, recorderTrigger } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, testLogger, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

const THROTTLED_MS = 20_000;

describe('lambda invoker under throttling', () => {
  const topic = uniqueName('throttled');
  const failed = `${topic}-failed`;
  let server: Server | undefined;
  let running: RunningService | undefined;
  afterAll(async () => {
    await running?.stop();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    await deleteTopic(topic);
    await deleteTopic(failed);
  });

  it('429 for 20 s, then 200: no attempt charged, nothing in the destination, every record invoked once it answers', async () => {
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}` })));

    let throttledUntil = Number.POSITIVE_INFINITY;
    let throttled = 0;
    const invoked: number[][] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"Configuration":{}}');
        if (Date.now() < throttledUntil) {
          throttled++;
          res.writeHead(429, { 'content-type': 'application/json', 'x-amzn-ErrorType': 'TooManyRequestsException', 'x-amzn-RequestId': `t-${throttled}` });
          return void res.end('{"Type":"User","message":"Rate Exceeded."}');
        }
        const event = JSON.parse(body) as SelfManagedKafkaEvent;
        invoked.push(Object.values(event.records).flat().map((r) => r.offset));
        res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-RequestId': `ok-${invoked.length}` }).end('null');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const trigger = recorderTrigger({
      topic, batchSize: 5,
      failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }),
    }, '/dev/null');
    const events = new Instrumentation();
    const retries: Array<SluiceEvents['poller.retry_scheduled']> = [];
    events.on('poller.retry_scheduled', (e) => retries.push(e));
    const invoker = createLambdaInvoker({ functionNames: { recorder: 'sluice-tests-test-recorder' }, endpoint, region: 'us-east-1', logger: testLogger, env: {}, maxConcurrency: trigger.concurrency });
    throttledUntil = Date.now() + THROTTLED_MS;
    running = await runService({ triggers: [trigger], invoker, logger: testLogger, events });

    await waitFor('all 10 committed', async () => (await offsets(trigger.consumerGroupId, topic))[0]!.committed === 10, THROTTLED_MS + 60_000);
    const drainedAfterMs = Date.now() - throttledUntil;
    console.log(
      `[throttled] ${throttled} × 429 over ${THROTTLED_MS / 1000} s, ${retries.length} retries scheduled (all without an attempt: ${retries.every((r) => r.notInvoked)}); ` +
        `invoked ${JSON.stringify(invoked)}; committed ${drainedAfterMs} ms after the endpoint answered`,
    );
    expect(throttled).toBeGreaterThan(0);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.notInvoked === true && r.attempt === 0)).toBe(true);
    expect(invoked.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(0);
  });
});
