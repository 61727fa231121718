/**
 * Issue 24, item 6: Lambda errors that mean the function never ran (403, 409
 * ResourceConflictException, the 502 family of VPC, ENI and KMS set-up errors) were failures
 * of the function: they spent attempts, bisected, and past the retries the records went to the
 * destination without ever running. Against a stand-in Lambda endpoint that answers one of each
 * before it answers 200, with maximumRetryAttempts 0 and a destination: nothing may reach the
 * destination, and every record is invoked once the function answers.
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

/** What Lambda's Invoke answers before the function runs: status, x-amzn-ErrorType, message. */
const BEFORE_THE_FUNCTION: Array<[number, string, string]> = [
  [403, 'AccessDeniedException', 'User: arn:aws:sts::1:assumed-role/poller is not authorized to perform: lambda:InvokeFunction'],
  [409, 'ResourceConflictException', 'The operation cannot be performed at this time. The function is currently in the following state: Pending'],
  [502, 'ResourceNotReadyException', 'The function is inactive and its VPC connection is no longer available.'],
  [502, 'ENILimitReachedException', 'Lambda was not able to create an ENI in the VPC.'],
];

describe('a Lambda error before the function ran', () => {
  const topic = uniqueName('not-ran');
  const failed = `${topic}-failed`;
  let server: Server | undefined;
  let running: RunningService | undefined;
  afterAll(async () => {
    await running?.stop();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    await deleteTopic(topic);
    await deleteTopic(failed);
  });

  it('403, 409, 502 ResourceNotReady and ENILimitReached spend no attempt: nothing in the destination, every record invoked', async () => {
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}` })));

    const errors = [...BEFORE_THE_FUNCTION];
    const answered: string[] = [];
    const invoked: number[][] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"Configuration":{}}');
        const error = errors.shift();
        if (error) {
          const [status, type, message] = error;
          answered.push(type);
          res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-ErrorType': type, 'x-amzn-RequestId': `e-${answered.length}` });
          return void res.end(JSON.stringify({ Type: status >= 500 ? 'Service' : 'User', message }));
        }
        const event = JSON.parse(body) as SelfManagedKafkaEvent;
        invoked.push(Object.values(event.records).flat().map((r) => r.offset));
        res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-RequestId': `ok-${invoked.length}` }).end('null');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const trigger = recorderTrigger({
      topic, batchSize: 10,
      failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }),
    }, '/dev/null');
    const events = new Instrumentation();
    const retries: Array<SluiceEvents['poller.retry_scheduled']> = [];
    const sent: Array<SluiceEvents['poller.sent_to_destination']> = [];
    events.on('poller.retry_scheduled', (e) => retries.push(e));
    events.on('poller.sent_to_destination', (e) => sent.push(e));
    const invoker = createLambdaInvoker({ functionNames: { recorder: 'sluice-tests-test-recorder' }, endpoint, region: 'us-east-1', logger: testLogger, env: {}, maxConcurrency: trigger.concurrency });
    running = await runService({ triggers: [trigger], invoker, logger: testLogger, events });

    await waitFor('all 10 committed', async () => (await offsets(trigger.consumerGroupId, topic))[0]!.committed === 10, 90_000);
    const inDestination = (await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd;
    console.log(`[not ran] answered ${answered.join(', ')}; ${retries.length} retries (without an attempt: ${retries.filter((r) => r.notInvoked).length}); ${inDestination} records in the destination; invoked ${JSON.stringify(invoked)}`);
    expect(answered).toEqual(BEFORE_THE_FUNCTION.map(([, type]) => type));
    expect(inDestination).toBe(0);
    expect(sent).toEqual([]);
    expect(retries.map((r) => [r.notInvoked, r.attempt])).toEqual(BEFORE_THE_FUNCTION.map(() => [true, 0]));
    expect(invoked).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  });
});
