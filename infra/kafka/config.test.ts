import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_MESSAGE_BYTES, clusterIdFromBytes, parseBrokerState, parseJavaMajor, parseKafkaVersion, renderLog4jProperties,
  renderServerProperties, resolveBrokerConfig, tailLines,
} from './config.ts';

const root = '/repo';

describe('resolveBrokerConfig', () => {
  it('defaults to <repo>/.sluice/kafka on 29092 with the controller on the next port', () => {
    expect(resolveBrokerConfig({}, {}, root)).toEqual({
      instanceDir: path.resolve('/repo/.sluice/kafka'), port: 29092, controllerPort: 29093, startTimeoutMs: 60_000,
    });
  });

  it('takes SLUICE_KAFKA_PORT and SLUICE_KAFKA_DIR, and explicit options over both', () => {
    const env = { SLUICE_KAFKA_PORT: '31000', SLUICE_KAFKA_DIR: 'tmp/k' };
    expect(resolveBrokerConfig({}, env, root)).toMatchObject({ instanceDir: path.resolve('/repo/tmp/k'), port: 31000, controllerPort: 31001 });
    expect(resolveBrokerConfig({ port: 39092, instanceDir: '/x' }, env, root)).toMatchObject({ instanceDir: path.resolve('/x'), port: 39092, controllerPort: 39093 });
  });

  it('names the variable to fix when a port is unusable', () => {
    expect(() => resolveBrokerConfig({}, { SLUICE_KAFKA_PORT: 'abc' }, root)).toThrow(/SLUICE_KAFKA_PORT must be a TCP port/);
    expect(() => resolveBrokerConfig({}, { SLUICE_KAFKA_PORT: '80' }, root)).toThrow(/SLUICE_KAFKA_PORT must be an integer between 1024 and 65535/);
    expect(() => resolveBrokerConfig({ port: 30000, controllerPort: 30000 }, {}, root)).toThrow(/controllerPort must differ/);
    expect(() => resolveBrokerConfig({ startTimeoutMs: 10 }, {}, root)).toThrow(/startTimeoutMs must be at least 1000/);
  });
});

describe('renderServerProperties', () => {
  const text = renderServerProperties({ port: 29092, controllerPort: 29093, dataDir: 'C:\\data\\kafka' });
  const props = new Map(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('=', 2) as [string, string]));

  it('describes one combined broker+controller on loopback with a dynamic quorum', () => {
    expect(props.get('process.roles')).toBe('broker,controller');
    expect(props.get('controller.quorum.bootstrap.servers')).toBe('127.0.0.1:29093');
    expect(props.has('controller.quorum.voters')).toBe(false);
    expect(props.get('listeners')).toBe('PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093');
    expect(props.get('advertised.listeners')).toBe('PLAINTEXT://127.0.0.1:29092');
  });

  it('fits a single node: replication 1, no auto-created topics, room for 7 MB records', () => {
    expect(props.get('offsets.topic.replication.factor')).toBe('1');
    expect(props.get('auto.create.topics.enable')).toBe('false');
    expect(Number(props.get('message.max.bytes'))).toBeGreaterThanOrEqual(7 * 1024 * 1024);
    expect(Number(props.get('replica.fetch.max.bytes'))).toBe(MAX_MESSAGE_BYTES);
    expect(Number(props.get('socket.request.max.bytes'))).toBeGreaterThan(MAX_MESSAGE_BYTES);
  });

  it('writes paths with forward slashes, since backslash is an escape in .properties', () => {
    expect(props.get('log.dirs')).toBe('C:/data/kafka');
  });

  it('adds further settings once each, replacing a default of the same name', () => {
    const lines = renderServerProperties({ port: 29092, controllerPort: 29093, dataDir: '/d', settings: { 'offset.metadata.max.bytes': 1024, 'message.max.bytes': 2048 } }).split('\n');
    expect(lines.filter((l) => l.startsWith('offset.metadata.max.bytes='))).toEqual(['offset.metadata.max.bytes=1024']);
    expect(lines.filter((l) => l.startsWith('message.max.bytes='))).toEqual(['message.max.bytes=2048']);
  });
});

describe('renderServerProperties for a node of a cluster', () => {
  const voters = [1, 2, 3].map((nodeId) => ({ nodeId, controllerPort: 39500 + nodeId * 2 + 1 }));
  const text = renderServerProperties({ port: 39504, controllerPort: 39505, dataDir: '/d', cluster: { nodeId: 2, voters } });
  const props = new Map(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('=', 2) as [string, string]));

  it('names its id and every voter (a static quorum), replicates three ways and acknowledges with two', () => {
    expect(props.get('node.id')).toBe('2');
    expect(props.get('controller.quorum.voters')).toBe('1@127.0.0.1:39503,2@127.0.0.1:39505,3@127.0.0.1:39507');
    expect(props.has('controller.quorum.bootstrap.servers')).toBe(false);
    expect(props.get('listeners')).toBe('PLAINTEXT://127.0.0.1:39504,CONTROLLER://127.0.0.1:39505');
    expect(props.get('default.replication.factor')).toBe('3');
    expect(props.get('min.insync.replicas')).toBe('2');
    expect(props.get('offsets.topic.replication.factor')).toBe('3');
    expect(props.get('unclean.leader.election.enable')).toBe('false');
  });
});

it('renderLog4jProperties sends everything to the instance log file', () => {
  const text = renderLog4jProperties('/i/server.log');
  expect(text).toContain('appender.file.fileName = /i/server.log');
  expect(text).toContain('rootLogger.appenderRef.file.ref = FILE');
});

it('parseKafkaVersion reads <kafka.version> and says what to add when it is missing', () => {
  expect(parseKafkaVersion('<properties>\n  <kafka.version>4.4.0</kafka.version>\n</properties>')).toBe('4.4.0');
  expect(() => parseKafkaVersion('<project/>')).toThrow(/add one/);
});

it('parseJavaMajor understands both version schemes', () => {
  expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime')).toBe(17);
  expect(parseJavaMajor('java version "1.8.0_392"')).toBe(8);
  expect(parseJavaMajor('openjdk version "21" 2023-09-19')).toBe(21);
  expect(parseJavaMajor('bash: java: not found')).toBeUndefined();
});

it('clusterIdFromBytes makes 22-character base64url ids and rejects a leading dash', () => {
  const id = clusterIdFromBytes(new Uint8Array(16).fill(7));
  expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  expect(clusterIdFromBytes(new Uint8Array([0xf8, ...new Array<number>(15).fill(0)]))).toBeUndefined();
  expect(() => clusterIdFromBytes(new Uint8Array(3))).toThrow(/16 bytes/);
});

it('tailLines keeps the last lines, ignoring trailing newlines', () => {
  expect(tailLines('a\nb\nc\n\n', 2)).toBe('b\nc');
  expect(tailLines('a', 5)).toBe('a');
});

it('parseBrokerState accepts what we write and nothing else', () => {
  const state = { pid: 42, bootstrap: '127.0.0.1:29092', port: 29092, controllerPort: 29093, kafkaVersion: '4.4.0', startedAt: 'now' };
  expect(parseBrokerState(JSON.stringify(state))).toEqual(state);
  expect(parseBrokerState('{"pid":"42"}')).toBeUndefined();
  expect(parseBrokerState('{torn')).toBeUndefined();
  expect(parseBrokerState('null')).toBeUndefined();
});
