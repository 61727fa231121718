import { describe, expect, it } from 'vitest';
import { fromArgv, fromPlugin, helpText, parseArgsOptions, pluginOptions, wholeNumber } from './command-spec.ts';
import { GENERATE_EVENT, INVOKE, REDRIVE, TAIL } from './command-specs.ts';

describe('one command definition, two front doors', () => {
  it('gives npm and the Serverless CLI the same flags', () => {
    for (const spec of [TAIL, REDRIVE, INVOKE, GENERATE_EVENT]) expect(Object.keys(pluginOptions(spec)).sort()).toEqual(Object.keys(parseArgsOptions(spec)).sort());
    expect(pluginOptions(TAIL).count).toEqual({ usage: TAIL.options.count!.usage, type: 'string', shortcut: 'n' });
  });

  it('takes the positional as its option, once', () => {
    expect(fromArgv(TAIL, { json: true }, ['orders'])).toEqual({ json: true, topic: 'orders' });
    expect(() => fromArgv(TAIL, { topic: 'a' }, ['b'])).toThrow(/once: as an argument or as --topic/);
    expect(() => fromArgv(TAIL, {}, ['a', 'b'])).toThrow(/Unexpected argument "b"/);
  });

  it('reads the plugin options it knows, booleans as booleans', () => {
    expect(fromPlugin(REDRIVE, { topic: 'dlq', 'dry-run': true, stage: 'dev', partition: '0' })).toEqual({ topic: 'dlq', 'dry-run': true, partition: '0' });
  });

  it('refuses a flag that is not a whole number, naming it', () => {
    expect(wholeNumber({ count: '10' }, 'count', 1)).toBe(10);
    expect(() => wholeNumber({ count: '0' }, 'count', 1)).toThrow('--count 0: give a whole number of at least 1.');
    expect(wholeNumber({}, 'count')).toBeUndefined();
  });

  it('prints both front doors in --help', () => {
    expect(helpText(REDRIVE)).toContain('npm run redrive -- <topic> [options]');
    expect(helpText(REDRIVE)).toContain('npx serverless sluice redrive --topic <topic> [options]');
    expect(helpText(REDRIVE)).toMatch(/--dry-run\s+List what would be sent/);
  });
});

describe('shortcuts', () => {
  it('never take one the Serverless CLI uses for itself', () => {
    const taken = ['r', 's', 'c', 'h', 'v', 'p', 'd'];
    for (const spec of [TAIL, REDRIVE, INVOKE, GENERATE_EVENT]) for (const [name, o] of Object.entries(spec.options)) expect(taken, `${spec.name} --${name}`).not.toContain(o.short);
  });
});
