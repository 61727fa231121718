/**
 * The Serverless CLI (osls) as a user runs it, on small services in temp directories that list
 * Sluice's plugin: `serverless print` validates sluice triggers with the registered schema and
 * Sluice's own rules; `serverless sluice start | produce | lag | status` run, send and report against
 * the real broker.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TriggerLag } from '../../framework/cli/lag-report.ts';
import { REPO, runCli } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, uniqueName, withAdmin } from '../support/kafka.ts';
import { sls, type Sls } from '../support/sls.ts';

const PLUGIN = join(REPO, 'framework', 'plugin', 'index.cjs');

function service(sluice: string, extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-sls-'));
  mkdirSync(join(dir, 'functions'));
  writeFileSync(
    join(dir, 'functions', 'echo.mjs'),
    'export const handler = async (event) => { for (const r of Object.values(event.records).flat()) console.log(`got ${r.partition}@${r.offset} ${Buffer.from(r.value, "base64")}`); };\n',
  );
  const yml = `service: sls-e2e\nframeworkVersion: '3'\nconfigValidationMode: error\nplugins:\n  - ${PLUGIN}\nprovider:\n  name: aws\n  runtime: nodejs20.x\n${extra}functions:\n  echo:\n    handler: functions/echo.handler\n    events:\n      - sluice:\n${sluice}`;
  writeFileSync(join(dir, 'serverless.yml'), yml);
  return dir;
}


describe('serverless print with the Sluice plugin', () => {
  it('prints a valid service, exit 0', async () => {
    const dir = service('          topic: orders\n          batchSize: 5\n', 'custom:\n  sluice:\n    concurrency: 2\n');
    const print = sls(['print'], dir);
    expect(await print.exited, print.output()).toBe(0);
    expect(print.output()).toMatch(/- sluice:\n\s+topic: orders\n\s+batchSize: 5/);
    expect(print.output()).not.toMatch(/Warning|unsupported function event/);
  });

  it('fails on a typo in a sluice trigger, naming the path and the property', async () => {
    const print = sls(['print'], service('          topic: orders\n          batchsize: 5\n'));
    expect(await print.exited).not.toBe(0);
    // Sluice's own words on this door too, as npm start gives them (osls's terser "unrecognized property" won before).
    expect(print.output()).toContain('functions.echo.events[0].sluice: unknown property "batchsize". Did you mean "batchSize"?');
  });

  it('fails on a typo in custom.sluice and on a value out of range', async () => {
    const print = sls(['print'], service('          topic: orders\n          batchSize: 0\n', 'custom:\n  sluice:\n    concurency: 2\n'));
    expect(await print.exited).not.toBe(0);
    expect(print.output()).toContain('custom.sluice: unknown property "concurency". Did you mean "concurrency"?');
    expect(print.output()).toContain('functions.echo.events[0].sluice.batchSize: must be at least 1 (got 0). batchSize is the number of records per invocation');
  });

  it("fails on Sluice's cross-field rules with the path and the fix", async () => {
    const print = sls(['print'], service('          topic: orders\n          sessionTimeoutMs: 10000\n          heartbeatIntervalMs: 5000\n'));
    expect(await print.exited).not.toBe(0);
    expect(print.output()).toMatch(/functions\.echo\.events\[0\]\.sluice: heartbeatIntervalMs 5000 is not below a third of sessionTimeoutMs 10000\. Lower heartbeatIntervalMs to at most 3333/);
  });

  it('fails on two triggers sharing a consumer group, naming both paths', async () => {
    const print = sls(['print'], service('          topic: orders\n          consumerGroupId: shared\n      - sluice:\n          topic: returns\n          consumerGroupId: shared\n'));
    expect(await print.exited).not.toBe(0);
    expect(print.output()).toMatch(/functions\.echo\.events\[0\]\.sluice and functions\.echo\.events\[1\]\.sluice: all use consumer group "shared"/);
  });
});

describe('serverless sluice start | produce | lag | status', () => {
  const topic = uniqueName('sls-e2e');
  let start: Sls | undefined;
  afterAll(async () => {
    start?.signal('SIGKILL');
    await deleteTopic(topic);
  });

  it('runs the trigger, sends records from stdin, reports the lag, and stops on SIGINT with exit 0', async () => {
    await createTopic(topic, 2);
    const group = uniqueName('sls-group');
    const dir = service(`          topic: ${topic}\n          consumerGroupId: ${group}\n          maximumBatchingWindow: 0\n          bootstrapServers: ${brokers().join(',')}\n`);

    start = sls(['sluice', 'start', '--function', 'echo'], dir);
    await start.waitFor(/ready\. Send records with: echo .* \| npx serverless sluice produce --topic/, 120_000);

    const lines = ['{"key":"a","value":{"n":1},"headers":{"trace":"t1"}}', '{"key":"b","value":{"n":2}}', '"three"'];
    const produce = sls(['sluice', 'produce', '--topic', topic], dir, lines.join('\n') + '\n');
    expect(await produce.exited, produce.output()).toBe(0);
    expect(produce.output()).toContain(`sent 3 records to ${topic}`);
    await start.waitFor(/\[echo\] got \d@\d three/);
    await start.waitFor(/\[echo\] got \d@\d \{"n":2\}/);

    let reports: TriggerLag[] = [];
    for (let i = 0; i < 50; i++) {
      const lag = sls(['sluice', 'lag', '--json'], dir);
      expect(await lag.exited, lag.output()).toBe(0);
      reports = JSON.parse(lag.output().slice(lag.output().indexOf('['), lag.output().lastIndexOf(']') + 1)) as TriggerLag[];
      if (reports[0]!.totalLag === 0 && reports[0]!.partitions.reduce((n, p) => n + Math.max(p.committed, 0), 0) === 3) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const [report] = reports;
    expect(report!.groupId).toBe(group);
    expect(report!.group.state).toBe('Stable');
    expect(report!.group.members).toHaveLength(1);
    expect(report!.group.members[0]!.assignment[topic]!.sort()).toEqual([0, 1]);
    expect(report!.partitions.reduce((n, p) => n + p.logEnd, 0)).toBe(3);
    expect(report!.totalLag).toBe(0);

    // The same group through `serverless sluice status`: the running member and its coordinator.
    const status = sls(['sluice', 'status'], dir);
    expect(await status.exited, status.output()).toBe(0);
    expect(status.output()).toContain(`echo: topic ${topic}, group ${group} on ${brokers().join(',')}`);
    expect(status.output()).toMatch(/state Stable, type classic \(protocol type consumer\), assignor \w+\n +coordinator broker \d+ at \S+, leader of __consumer_offsets-\d+ \(of \d+\)\n +members 1:\n +#1 \S+ +client \S+ +host \S+ +partitions 0,1\n/);

    // The commands npm runs, through this front door with the same flags: produce --count/--key, tail, generate-event.
    const samples = sls(['sluice', 'produce', '--topic', topic, '--count', '2', '--key', 'k-1'], dir);
    expect(await samples.exited, samples.output()).toBe(0);
    expect(samples.output()).toContain(`sent 2 records to ${topic}`);
    const tail = sls(['sluice', 'tail', '--topic', topic, '--from-beginning', '--count', '5', '--json'], dir);
    expect(await tail.exited, tail.output()).toBe(0);
    const shown = tail.output().split('\n').filter((l) => l.startsWith('{"topic"')).map((l) => JSON.parse(l) as { key: string | null; value: string });
    expect(shown.map((r) => r.value).filter((v) => v === 'three' || v === '{"n":1}' || v === '{"n":2}').sort()).toEqual(['three', '{"n":1}', '{"n":2}'].sort());
    expect(shown.filter((r) => r.key === 'k-1')).toHaveLength(2);
    // Values after the options, as `npm run produce -- <topic> <value> …` takes them (osls drops them from its options: positionals.ts).
    const positional = sls(['sluice', 'produce', '--topic', topic, 'oops{', '{"id":2}'], dir, '');
    expect(await positional.exited, positional.output()).toBe(0);
    expect(positional.output()).toContain(`sent 2 records to ${topic}`);
    await start.waitFor(/\[echo\] got \d@\d \{"id":2\}/);
    // --exit stops at the log's end as it was (kcat -e): the 3 + 2 + 2 records, without a count.
    const toEnd = sls(['sluice', 'tail', '--topic', topic, '--from-beginning', '--exit', '--json'], dir);
    expect(await toEnd.exited, toEnd.output()).toBe(0);
    expect(toEnd.output().split('\n').filter((l) => l.startsWith('{"topic"'))).toHaveLength(7);
    // Nothing to send is an error that says what to give, not "sent 0 records".
    const nothing = sls(['sluice', 'produce', '--topic', topic], dir, '');
    expect(await nothing.exited, nothing.output()).not.toBe(0);
    expect(nothing.output()).toContain('stdin held no records. Nothing to send: give values after the options');
    // The same bad input through both doors: the same message, each naming its own door's command.
    const npmDoor = (args: string[]) => runCli('framework/cli/produce.ts', args, { env: { ...process.env, KAFKA_BROKERS: brokers().join(',') } });
    const door = (text: string) => text.replaceAll('npx serverless sluice produce --topic <topic>', '<produce>').replaceAll('npm run produce -- <topic>', '<produce>');
    for (const bad of [[], ['--count', '0'], ['--header', 'nope', 'v'], ['--bogus-flag', 'v']]) {
      const viaSls = sls(['sluice', 'produce', '--topic', topic, ...bad], dir, '');
      const viaNpm = npmDoor(['--topic', topic, ...bad]);
      expect(await viaSls.exited, viaSls.output()).not.toBe(0);
      expect(await viaNpm.exited, viaNpm.output()).toBe(1);
      const said = /sluice: (.+)/.exec(viaNpm.output())?.[1];
      expect(said, viaNpm.output()).toBeDefined();
      if (bad[0] === '--bogus-flag') {
        // osls refuses an option no command declares itself, before Sluice sees it.
        expect(said).toBe("Unknown option '--bogus-flag'.");
        expect(viaSls.output()).toContain('--bogus-flag');
      } else expect(door(viaSls.output()), viaSls.output()).toContain(door(said!));
      console.log(`[doors] produce ${bad.join(' ') || '(nothing)'}:\n  npm:        ${said}\n  serverless: ${/Error:\n(.+)/.exec(viaSls.output())?.[1] ?? viaSls.output().trim().split('\n').at(-1)}`);
    }
    // A message names this door's commands: a service has no `npm start`.
    const missing = sls(['sluice', 'produce', '--topic', `${topic}-missing`, '--brokers', brokers().join(','), 'v'], dir, '');
    expect(await missing.exited, missing.output()).not.toBe(0);
    expect(missing.output()).toContain(`Topic "${topic}-missing" does not exist on ${brokers().join(',')}. \`npx serverless sluice start\` creates the declared topics`);
    // No brokers for a topic no trigger declares, and no local Kafka: this door's command again.
    const noBroker = sls(['sluice', 'produce', '--topic', `${topic}-missing`, 'v'], dir, '');
    expect(await noBroker.exited, noBroker.output()).not.toBe(0);
    expect(noBroker.output()).toMatch(/start it with `npx serverless sluice start`|does not exist on \S+\. `npx serverless sluice start` creates/);
    const event = sls(['sluice', 'generate-event', '--function', 'echo', '--value', 'hi'], dir);
    expect(await event.exited, event.output()).toBe(0);
    expect(event.output()).toContain(`"topic": "${topic}"`);
    expect(event.output()).toContain(`"value": "${Buffer.from('hi').toString('base64')}"`);

    start.signal('SIGINT');
    expect(await start.exited, start.output()).toBe(0);
    expect(start.output()).toMatch(/SIGINT: finishing in-flight invocations[\s\S]*stopped/);
    // About 30 CLI runs of osls: 113-135 s in quiet CI runs, past 180 s in CI-9 beside other work (a hang guard, not a speed check).
  }, 360_000);
});

describe('create-topics, for a cluster of your own', () => {
  const made: string[] = [];
  afterAll(() => Promise.all(made.map(deleteTopic)));
  const partitionsOf = (topic: string) => withAdmin((a) => a.partitionCount(topic));

  it("creates the triggers' topics and their kafka:// destinations where the triggers point, leaves existing ones, and creates one --topic at either door", async () => {
    const topic = uniqueName('ct');
    made.push(topic, `${topic}-failed`);
    const dir = service(`          topic: ${topic}\n          bootstrapServers: ${brokers().join(',')}\n          maximumRetryAttempts: 0\n          destinationConfig: { onFailure: { destination: kafka://${topic}-failed } }\n`);
    const first = sls(['sluice', 'create-topics', '--partitions', '2'], dir);
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).toContain(`created ${topic} on ${brokers().join(',')}: 2 partitions`);
    expect(first.output()).toContain(`created ${topic}-failed on ${brokers().join(',')}: 2 partitions`);
    expect([await partitionsOf(topic), await partitionsOf(`${topic}-failed`)]).toEqual([2, 2]);
    // Again: both exist, nothing changes (not even with another partition count).
    const again = sls(['sluice', 'create-topics', '--partitions', '5'], dir);
    expect(await again.exited, again.output()).toBe(0);
    expect(again.output()).toContain(`${topic} exists on ${brokers().join(',')}: left as it is`);
    expect(again.output()).toContain('0 created, 2 already there');
    expect(await partitionsOf(topic)).toBe(2);

    // One topic, at the npm door with the topic as its argument and at the Serverless CLI's with --topic.
    const viaNpm = runCli('framework/cli/create-topics.ts', [`${topic}-npm`, '--partitions', '4', '--brokers', brokers().join(',')]);
    made.push(`${topic}-npm`, `${topic}-sls`);
    expect(await viaNpm.exited, viaNpm.output()).toBe(0);
    const viaSls = sls(['sluice', 'create-topics', '--topic', `${topic}-sls`, '--partitions', '1', '--brokers', brokers().join(',')], dir);
    expect(await viaSls.exited, viaSls.output()).toBe(0);
    expect([await partitionsOf(`${topic}-npm`), await partitionsOf(`${topic}-sls`)]).toEqual([4, 1]);
    // What the brokers refuse is said with what to change (it was kafkajs's "Topic creation errors" and a stack).
    const tooMany = sls(['sluice', 'create-topics', '--topic', `${topic}-rf`, '--replication-factor', '3', '--brokers', brokers().join(',')], dir);
    expect(await tooMany.exited).not.toBe(0);
    expect(tooMany.output()).toContain(`topic "${topic}-rf": INVALID_REPLICATION_FACTOR`);
    expect(tooMany.output()).toContain('give a replication factor at most the number of brokers');
    // A bad count is refused before any broker is asked, with the same words at both doors.
    const bad = sls(['sluice', 'create-topics', '--topic', `${topic}-x`, '--partitions', '0'], dir);
    expect(await bad.exited).not.toBe(0);
    expect(bad.output()).toContain('--partitions 0: give a whole number of at least 1.');
    const badNpm = runCli('framework/cli/create-topics.ts', [`${topic}-x`, '--partitions', '0']);
    expect(await badNpm.exited).toBe(1);
    expect(badNpm.output()).toContain('--partitions 0: give a whole number of at least 1.');
  });
});

