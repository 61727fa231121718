/**
 * Issue 24, item 3: ECS sends SIGTERM, then SIGKILL after the task's StopTimeout (at most 120 s).
 * The container waited for every in-flight invocation however long, so a chunk longer than the
 * stop timeout got the poller SIGKILLed mid-chunk: no LeaveGroup, and the next owner waited a
 * whole session for the partition. With SLUICE_STOP_DEADLINE_MS (the StopTimeout the template
 * writes), the poller commits what finishes before it, leaves the group without the chunk that
 * does not, and exits: that chunk's records are invoked again by the next owner, never committed.
 *
 * The container entry runs as ECS runs it (SLUICE_TRIGGERS, the lambda invoker) against the real
 * broker and a stand-in Lambda endpoint; the test plays ECS: SIGTERM, then SIGKILL at the deadline.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SelfManagedKafkaEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { describeConsumerGroup } from '../../framework/kafka/rdkafka/describe-group.ts';
import type { ContainerConfig } from '../../framework/plugin/deploy/container-config.ts';
import { runCli, type CliProcess } from '../support/cli.ts';
import { recordsOf, recorderTrigger, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

const STOP_DEADLINE_MS = 12_000;

describe('SIGTERM with a chunk longer than the stop timeout', () => {
  const topic = uniqueName('sigterm-long');
  const group = uniqueName('sigterm-long-g');
  let lambda: Server | undefined;
  let poller: CliProcess | undefined;
  let next: Harness | undefined;
  const held = new Map<number, ServerResponse>();
  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    for (const res of held.values()) res.destroy();
    await next?.stop();
    await new Promise((r) => (lambda ? lambda.close(r) : r(undefined)));
    await deleteTopic(topic);
  });

  it('commits the chunk that finishes, leaves the group without the one that does not, and exits before SIGKILL; the next owner invokes that one again', async () => {
    await createTopic(topic, 2);
    // A stand-in Lambda that holds every invocation until the test answers it.
    lambda = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (!req.url?.endsWith('/invocations')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"Configuration":{}}');
        const [record] = Object.values((JSON.parse(body) as SelfManagedKafkaEvent).records).flat();
        held.set(record!.partition, res);
      });
    });
    await new Promise<void>((resolve) => lambda!.listen(0, '127.0.0.1', resolve));

    const sessionTimeoutMs = 30_000;
    const trigger = { ...recorderTrigger({ topic, consumerGroupId: group, batchSize: 10, timeoutMs: 60_000, sessionTimeoutMs }, '/dev/null'), environment: {} };
    const config: ContainerConfig = { version: 1, invoker: 'lambda', service: 'shop', stage: 'prod', functionNames: { recorder: 'shop-prod-recorder' }, triggers: [trigger], metrics: { namespace: 'Sluice', periodSeconds: 60 } };
    const env: NodeJS.ProcessEnv = {
      ...process.env, SLUICE_TRIGGERS: JSON.stringify(config), SLUICE_HTTP_PORT: '0', SLUICE_STOP_DEADLINE_MS: String(STOP_DEADLINE_MS),
      AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`, KAFKA_BROKERS: brokers().join(','),
    };
    delete env.AWS_PROFILE;
    // Both records before the first fetch: kafkajs fetches a broker's partitions again only once
    // every batch of its last fetch was processed, so both must come in the same one.
    await produce(topic, [{ value: 'long', partition: 1 }, { value: 'short', partition: 0 }]);
    poller = runCli('framework/cli/container.ts', [], { env });
    await poller.waitForOutput(/ready: shop \(prod\)/, 60_000);
    await waitFor('both partitions inside an invocation', () => held.size === 2, 30_000).catch((e: Error) => {
      throw new Error(`${e.message}; held ${[...held.keys()].join(',')}; poller output:\n${poller!.output()}`);
    });
    poller.child.kill('SIGTERM');
    const sigtermAt = Date.now();
    // ECS: SIGKILL once the stop timeout has passed.
    const ecs = setTimeout(() => poller!.child.kill('SIGKILL'), STOP_DEADLINE_MS);
    // Partition 0's invocation ends after SIGTERM; partition 1's does not end before the deadline.
    held.get(0)!.writeHead(200, { 'content-type': 'application/json' }).end('null');
    const exitCode = await poller.exited;
    clearTimeout(ecs);
    const exitedAfterMs = Date.now() - sigtermAt;
    // A KIP-848 group (the librdkafka engine) is described by librdkafka: kafkajs sees it as Dead, empty.
    const members = ((await describeConsumerGroup(brokers(), group)) ?? (await withAdmin((a) => a.describeGroup(group)))).members.length;
    const committed = await offsets(group, topic);
    console.log(`[sigterm-long] exited ${exitCode === null ? 'by SIGKILL' : `with ${exitCode}`} ${exitedAfterMs} ms after SIGTERM (deadline ${STOP_DEADLINE_MS} ms); ${members} member(s) left in the group; committed ${JSON.stringify(committed.map((p) => [p.partition, p.committed]))}`);
    expect(exitCode, poller.output()).toBe(0); // exited by itself, not by ECS's SIGKILL
    expect(members).toBe(0); // left the group: the next owner need not wait out the session
    expect(committed.find((p) => p.partition === 0)!.committed).toBe(1);
    expect(committed.find((p) => p.partition === 1)!.committed).toBe(-1); // the unfinished chunk: never committed
    expect(poller.output()).toMatch(/still running at the stop deadline/);

    // The next owner invokes the unfinished chunk's record again: a duplicate, never a loss.
    next = await startRecorder({ topic, consumerGroupId: group, batchSize: 10, sessionTimeoutMs });
    await waitFor('the next owner invoked partition 1 again', () => next!.seen().some((s) => recordsOf(s).some((r) => r.partition === 1 && r.offset === 0)), 60_000);
    await waitFor('committed past it', async () => (await offsets(group, topic)).find((p) => p.partition === 1)!.committed === 1, 30_000);
    expect(next.seen().flatMap(recordsOf).filter((r) => r.partition === 0)).toEqual([]);
  });
});
