/**
 * `produce --subject` against the real registry: Confluent's own Python serializers register each
 * schema (as a producer would) and encode a value with it; the same value sent through either front
 * door with --subject lands byte for byte as they wrote it (Avro, Protobuf with nested message
 * indexes), JSON Schema values are validated, and what does not fit is refused with its reason.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO, runCli } from '../../support/cli.ts';
import { brokers, createTopic, deleteTopic, readTopic, uniqueName } from '../../support/kafka.ts';
import { produceWithRegistry } from '../../support/registry-producer.ts';
import { sls } from '../../support/sls.ts';
import { avroRecords, jsonRecords, order, protobufRecords } from './schemas.ts';

const registry = () => inject('schemaRegistryUrl');
const npmProduce = (topic: string, args: string[]) => runCli('framework/cli/produce.ts', [topic, '--brokers', brokers().join(','), ...args]);

describe('produce --subject', () => {
  const topics: string[] = [];
  afterAll(() => Promise.all(topics.map(deleteTopic)));
  const topicOf = async (prefix: string) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, 1);
    return topic;
  };

  it("writes Avro and Protobuf values byte for byte as Confluent's serializers do, with the subject's latest schema", async () => {
    const avro = await topicOf('subject-avro');
    const [expectedAvro] = (await produceWithRegistry(registry(), avro, avroRecords(1), { produce: false })).encoded;
    const a = npmProduce(avro, ['--subject', `${avro}-value`, '--registry', registry(), JSON.stringify(order(0))]);
    expect(await a.exited, a.output()).toBe(0);
    expect(a.output()).toMatch(new RegExp(`writing 1 value with schema \\d+ \\(AVRO\\) of subject ${avro}-value`));

    const proto = await topicOf('subject-proto');
    const expectedProto = (await produceWithRegistry(registry(), proto, protobufRecords(3), { produce: false })).encoded;
    const customer = (protobufRecords(1)[0]!.value as { data: unknown }).data;
    const note = (protobufRecords(3)[2]!.value as { data: unknown }).data;
    const p1 = npmProduce(proto, ['--subject', `${proto}-value`, '--registry', registry(), '--message', 'Customer', JSON.stringify(customer)]);
    expect(await p1.exited, p1.output()).toBe(0);
    const p2 = npmProduce(proto, ['--subject', `${proto}-value`, '--registry', registry(), '--message', 'shop.Customer.Note', JSON.stringify(note)]);
    expect(await p2.exited, p2.output()).toBe(0);

    const [gotAvro] = await readTopic(avro, 1);
    expect(gotAvro!.value!.toString('hex')).toBe(expectedAvro!.value!.toString('hex'));
    const gotProto = await readTopic(proto, 2);
    expect(gotProto.map((r) => r.value!.toString('hex'))).toEqual([expectedProto[0]!.value!.toString('hex'), expectedProto[2]!.value!.toString('hex')]);
  });

  it("validates JSON Schema values and sends their text, refuses what does not fit with the reason, and takes the trigger's registry at the Serverless door", async () => {
    const json = await topicOf('subject-json');
    const [expected] = (await produceWithRegistry(registry(), json, jsonRecords(1), { produce: false })).encoded;
    const text = '{"stars": 4, "text": "ok"}';
    const good = npmProduce(json, ['--subject', `${json}-value`, '--registry', registry(), text]);
    expect(await good.exited, good.output()).toBe(0);
    const [got] = await readTopic(json, 1);
    expect(got!.value!.subarray(0, 5)).toEqual(expected!.value!.subarray(0, 5)); // magic byte and the same schema id
    expect(got!.value!.subarray(5).toString()).toBe(text);

    const bad = npmProduce(json, ['--subject', `${json}-value`, '--registry', registry(), '{"text":"no stars"}']);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("record 1: the value does not match the JSON Schema: / must have required property 'stars'");
    const notJson = npmProduce(json, ['--subject', `${json}-value`, '--registry', registry(), 'oops{']);
    expect(await notJson.exited).toBe(1);
    expect(notJson.output()).toContain('record 1: "oops{" is not JSON; with --subject each value is JSON that JSON encodes.');
    const unknown = npmProduce(json, ['--subject', `${json}-nope`, '--registry', registry(), text]);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toContain(`Subject "${json}-nope" has no schema in the registry at ${registry()}. Register one first`);

    // The Serverless door, in a service whose trigger names the registry: no --registry needed.
    const dir = mkdtempSync(join(tmpdir(), 'sluice-subject-'));
    mkdirSync(join(dir, 'functions'));
    writeFileSync(join(dir, 'functions', 'h.mjs'), 'export const handler = async () => {};\n');
    writeFileSync(
      join(dir, 'serverless.yml'),
      `service: subject\nframeworkVersion: '3'\nplugins:\n  - ${join(REPO, 'framework', 'plugin', 'index.cjs')}\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  h:\n    handler: functions/h.handler\n    events:\n      - sluice:\n          topic: ${json}\n          bootstrapServers: ${brokers().join(',')}\n` +
        `          schemaRegistryConfig: { schemaRegistryUri: "${registry()}", eventRecordFormat: JSON, schemaValidationConfigs: [{ attribute: VALUE }] }\n`,
    );
    const viaSls = sls(['sluice', 'produce', '--topic', json, '--subject', `${json}-value`, '{"stars": 5}'], dir, '');
    expect(await viaSls.exited, viaSls.output()).toBe(0);
    expect(viaSls.output()).toContain(`of subject ${json}-value from ${registry()}`);
    const [, second] = await readTopic(json, 2);
    expect(second!.value!.subarray(5).toString()).toBe('{"stars": 5}');
  });
});
