import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolveVariables, type VariableSources } from './variables.ts';
import { configErrorMessage } from './testing.ts';

const doc = {
  service: 'shop',
  provider: { stage: '${opt:stage, "staging"}', region: 'eu-west-1', timeout: 30 },
  custom: {
    topics: { dev: 'orders-dev', prod: 'orders-prod' },
    prefix: 'shop',
    list: ['a', 'b'],
    loopA: '${self:custom.loopB}',
    loopB: '${self:custom.loopA}',
  },
};

function sources(over: Partial<VariableSources> = {}): VariableSources {
  return { doc, env: { BROKERS: 'k1:9092', EMPTY: '' }, options: {}, ...over };
}

const resolve = (value: unknown, over: Partial<VariableSources> = {}) => resolveVariables(value, ['custom', 'x'], sources(over));

const messageOf = configErrorMessage;

describe('resolveVariables', () => {
  it('resolves self, env, opt and sls:stage', () => {
    expect(resolve('${self:service}')).toBe('shop');
    expect(resolve('${self:provider.timeout}')).toBe(30); // a whole-value variable keeps its type
    expect(resolve('${self:custom.list.1}')).toBe('b');
    expect(resolve('${env:BROKERS}')).toBe('k1:9092');
    expect(resolve('${env:EMPTY}')).toBe('');
    expect(resolve('${opt:stage}', { options: { stage: 'prod' } })).toBe('prod');
    expect(resolve('${sls:stage}', { options: { stage: 'prod' } })).toBe('prod');
  });

  it('derives sls:stage from provider.stage, then dev', () => {
    expect(resolve('${sls:stage}')).toBe('staging');
    expect(resolveVariables('${sls:stage}', [], { doc: {}, env: {}, options: {} })).toBe('dev');
  });

  it('uses defaults in single or double quotes, numbers, booleans and nested variables', () => {
    expect(resolve("${env:NOPE, 'fallback'}")).toBe('fallback');
    expect(resolve('${opt:region, "us-east-2"}')).toBe('us-east-2');
    expect(resolve("${env:NOPE, 'a, b}'}")).toBe('a, b}');
    expect(resolve('${env:NOPE, 42}')).toBe(42);
    expect(resolve('${env:NOPE, false}')).toBe(false);
    expect(resolve('${env:NOPE, ${self:custom.prefix}}')).toBe('shop');
    expect(resolve('${env:NOPE, env:BROKERS}')).toBe('k1:9092');
    expect(resolve("${env:BROKERS, 'unused'}")).toBe('k1:9092');
  });

  it('interpolates variables inside strings and in addresses', () => {
    expect(resolve('${self:custom.prefix}-${sls:stage}-${env:NOPE, 1}')).toBe('shop-staging-1');
    expect(resolve('${self:custom.topics.${opt:stage, "dev"}}')).toBe('orders-dev');
    expect(resolve('${self:custom.topics.${opt:stage, "dev"}}', { options: { stage: 'prod' } })).toBe('orders-prod');
  });

  it('resolves maps and lists deeply without touching the input', () => {
    const input = { a: ['${self:service}', 2], b: { c: '${env:BROKERS}' }, d: null };
    expect(resolve(input)).toEqual({ a: ['shop', 2], b: { c: 'k1:9092' }, d: null });
    expect(input.a[0]).toBe('${self:service}');
  });

  it('refuses an unresolvable variable without default, naming the path and the variable', () => {
    expect(messageOf(() => resolve('${env:KAFKA_TOPIC}'))).toBe(
      "custom.x: cannot resolve ${env:KAFKA_TOPIC}: environment variable KAFKA_TOPIC is not set. Set KAFKA_TOPIC, or give a default: ${env:KAFKA_TOPIC, 'value'}.",
    );
    expect(messageOf(() => resolve('${self:custom.nope}'))).toContain('custom.x: cannot resolve ${self:custom.nope}: nothing is set at custom.nope');
    expect(messageOf(() => resolve('${opt:stage}'))).toContain('no --stage option was given. Pass --stage');
    expect(messageOf(() => resolve('topic-${env:NOPE}'))).toContain('cannot resolve ${env:NOPE}');
  });

  it.each(['${ssm:/kafka/brokers}', '${cf:stack.Output}', '${file(./config.yml):topic}', '${s3:bucket/key}', '${aws:region}', '${sls:instanceId}'])(
    'refuses the unsupported source in %s, suggesting a default or an env variable',
    (variable) => {
      const message = messageOf(() => resolve(variable));
      expect(message).toContain(`custom.x: cannot resolve ${variable}`);
      expect(message).toContain('npm start resolves only self:, env:, opt: and sls: variables');
      expect(message).toContain("Give it a default (${");
      expect(message).toContain('or use an environment variable (${env:NAME})');
    },
  );

  it('uses the default of an unsupported source', () => {
    expect(resolve("${ssm:/kafka/brokers, 'localhost:9092'}")).toBe('localhost:9092');
    expect(resolve('${ssm:/kafka/brokers, ${env:BROKERS}}')).toBe('k1:9092');
  });

  it('stops on self-reference loops instead of recursing forever', () => {
    expect(messageOf(() => resolve('${self:custom.loopA}'))).toContain('refers back to itself (self:custom.loopA -> self:custom.loopB -> self:custom.loopA)');
    const selfish = { provider: { stage: '${sls:stage}' } };
    expect(messageOf(() => resolveVariables('${sls:stage}', [], { doc: selfish, env: {}, options: {} }))).toContain('refers back to itself');
  });

  it('bounds the depth of self-reference chains', () => {
    const chain: Record<string, string> = {};
    for (let i = 0; i < 15; i++) chain[`v${i}`] = `\${self:custom.v${i + 1}}`;
    chain.v15 = 'end';
    const deep = { custom: chain };
    expect(resolveVariables('${self:custom.v6}', [], { doc: deep, env: {}, options: {} })).toBe('end');
    expect(messageOf(() => resolveVariables('${self:custom.v0}', [], { doc: deep, env: {}, options: {} }))).toContain('self: references deep');
  });

  it('refuses unclosed variables and maps embedded in strings', () => {
    expect(messageOf(() => resolve('${env:BROKERS'))).toContain('is never closed');
    expect(messageOf(() => resolve('x-${self:custom.topics}'))).toContain('resolves to a map, which cannot be part of a string');
  });

  it('leaves text without variables as it is', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes('${')), (text) => {
        expect(resolve(text)).toBe(text);
      }),
    );
  });

  it('takes env values verbatim, whatever they hold', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(resolve('${env:ANY}', { env: { ANY: value } })).toBe(value);
      }),
    );
  });
});
