/**
 * A destination that is down pauses the partition: no offset passes the failed record, nothing
 * is dropped, and the partition drains once the destination is back. Counted: 0 lost.
 * Once with a Kafka destination topic that disappears, once with SQS on a real
 * AWS-compatible server (moto) that is stopped mid-run, and once with an SQS endpoint that
 * accepts connections and never answers (a black hole): the send is given up on at its
 * deadline while the member keeps its session.
 */
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { FailurePolicy } from '../../framework/config/types.ts';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, readTopic, uniqueName, waitFor } from '../support/kafka.ts';
import { moto } from '../support/moto.ts';
import { testPort } from '../support/ports.ts';

const policy = (onFailure: FailurePolicy['onFailure']): FailurePolicy => ({
  maximumRetryAttempts: 0, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure,
});

describe('destination outage', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  const server = moto(testPort(28772));
  const blackHolePort = testPort(28773);
  const backAfterBlackHole = moto(blackHolePort);
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await server.stop();
    await backAfterBlackHole.stop();
    await Promise.all(topics.map(deleteTopic));
  });

  /** Produces 6 records with a poison at offset 3; returns the poller and a way to watch it wait. */
  const run = async (topic: string, onFailure: FailurePolicy['onFailure'], takeDown: () => Promise<void>) => {
    await createTopic(topic, 1);
    const h = await startRecorder({ topic, batchSize: 1, failure: policy(onFailure), env: { POISON_OFFSETS: '3' } });
    harnesses.push(h);
    await takeDown();
    let failedSends = 0;
    h.events.on('poller.destination_failed', () => failedSends++);
    await produce(topic, Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })));
    await waitFor('two failed sends', () => failedSends >= 2, 60_000);
    expect((await offsets(h.trigger.consumerGroupId, topic))[0]!.committed).toBe(3);
    return { h, failedSends: () => failedSends };
  };
  const lost = (h: Harness, inDestination: number[]) => {
    const ok = new Set(h.seen().filter((s) => !recordsOf(s).some((r) => r.offset === 3)).flatMap(recordsOf).map((r) => r.offset));
    return [0, 1, 2, 3, 4, 5].filter((o) => !ok.has(o) && !inDestination.includes(o)).length;
  };

  it('Kafka destination topic gone: waits at the failed record, drains when it is back', async () => {
    const topic = uniqueName('outage');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(failed, 1); // it must exist at start
    const { h, failedSends } = await run(topic, { kind: 'kafka', uri: `kafka://${failed}`, topic: failed }, () => deleteTopic(failed));
    await createTopic(failed, 1);
    await waitFor('drained', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 6, 60_000);
    const dead = await readTopic(failed, 1);
    const inDestination = dead.map((d) => Number(d.headers[FAILURE_HEADERS.offset]!.toString()));
    console.log(`[outage kafka] ${failedSends()} failed sends while the topic was missing; destination holds ${JSON.stringify(inDestination)}; lost ${lost(h, inDestination)}`);
    expect(inDestination).toEqual([3]);
    expect(lost(h, inDestination)).toBe(0);
  });

  it('SQS endpoint stopped mid-run: waits at the failed record, drains when it is back', async () => {
    Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: server.endpoint, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' });
    const sqs = new SQSClient({ endpoint: server.endpoint, region: 'us-east-1' });
    const queue = uniqueName('failed');
    await server.start();
    await sqs.send(new CreateQueueCommand({ QueueName: queue }));

    const topic = uniqueName('outage-sqs');
    topics.push(topic);
    const { h, failedSends } = await run(topic, { kind: 'sqs', uri: `arn:aws:sqs:us-east-1:123456789012:${queue}`, region: 'us-east-1', accountId: '123456789012', name: queue }, () => server.stop());
    await server.start(); // moto starts empty: the queue comes back with it
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: queue }));
    await waitFor('drained', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 6, 60_000);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const bodies = Messages.map((m) => JSON.parse(m.Body!) as { requestContext: { condition: string }; source: { offset: number }; record: { value: string } });
    const inDestination = bodies.map((b) => b.source.offset);
    console.log(`[outage sqs] ${failedSends()} failed sends while SQS was down; queue holds ${JSON.stringify(inDestination)}; lost ${lost(h, inDestination)}`);
    expect(inDestination).toEqual([3]);
    expect(bodies[0]!.requestContext.condition).toBe('RetryAttemptsExhausted');
    expect(Buffer.from(bodies[0]!.record.value, 'base64').toString()).toBe('v3');
    expect(lost(h, inDestination)).toBe(0);
    sqs.destroy();
  });

  it('SQS endpoint black-holed: the send times out, the member keeps its session, the partition drains once it answers', async () => {
    const held: Socket[] = [];
    const hole = createTcpServer((socket) => void held.push(socket)); // accepts, reads, never answers
    await new Promise<void>((resolve) => hole.listen(blackHolePort, '127.0.0.1', resolve));
    Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: backAfterBlackHole.endpoint, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' });
    const queue = uniqueName('failed');
    const topic = uniqueName('blackhole');
    topics.push(topic);
    await createTopic(topic, 1);
    // A 30 s poll interval bounds each send at 13.5 s (half of 27 s): longer than the 10 s session, so only heartbeats keep the member.
    const h = await startRecorder({
      topic, batchSize: 1, timeoutMs: 5_000, maxPollIntervalMs: 30_000, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 2_000, env: { POISON_OFFSETS: '3' },
      failure: policy({ kind: 'sqs', uri: `arn:aws:sqs:us-east-1:123456789012:${queue}`, region: 'us-east-1', accountId: '123456789012', name: queue }),
    });
    harnesses.push(h);
    const failures: string[] = [];
    const rebalances: string[] = [];
    h.events.on('poller.destination_failed', (e) => failures.push(e.error));
    h.events.on('group.rebalance_detected', (e) => rebalances.push(e.reason));
    const sentAt = Date.now();
    await produce(topic, Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })));
    await waitFor('the send given up on', () => failures.length >= 1, 60_000);
    const gaveUpMs = Date.now() - sentAt;
    expect(failures[0]).toMatch(/^no answer from arn:aws:sqs:us-east-1:123456789012:.* within 12500 ms$/); // half of what the 30 s interval leaves after its margin and start window
    expect((await offsets(h.trigger.consumerGroupId, topic))[0]!.committed).toBe(3);

    for (const s of held) s.destroy();
    await new Promise((resolve) => hole.close(resolve));
    await backAfterBlackHole.start();
    const sqs = new SQSClient({ endpoint: backAfterBlackHole.endpoint, region: 'us-east-1' });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: queue }));
    await waitFor('drained', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 6, 90_000);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    const inDestination = Messages.map((m) => (JSON.parse(m.Body!) as { source: { offset: number } }).source.offset);
    console.log(`[outage black hole] first send given up ${gaveUpMs} ms after the records were produced; ${failures.length} failed sends; ${rebalances.length} rebalances; joins ${h.joins.length}; queue holds ${JSON.stringify(inDestination)}; lost ${lost(h, inDestination)}`);
    expect(rebalances).toEqual([]);
    expect(h.joins).toHaveLength(1);
    expect(inDestination).toEqual([3]);
    expect(lost(h, inDestination)).toBe(0);
    sqs.destroy();
  });
});
