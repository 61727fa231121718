import { describe, expect, it } from 'vitest';
import { positionalsAfter } from './positionals.ts';

const PRODUCE = { topic: { shortcut: 't' }, value: {}, key: { shortcut: 'k' }, header: { type: 'multiple' }, count: { shortcut: 'n' }, file: {}, brokers: { shortcut: 'b' } };
const argv = (line: string[]) => ['sluice', 'produce', ...line];

describe('positionalsAfter', () => {
  it('reads the values after the options, as npm run produce takes them', () => {
    expect(positionalsAfter(['sluice', 'produce'], argv(['-t', 'orders', 'oops{', '{"id":2}']), PRODUCE)).toEqual(['oops{', '{"id":2}']);
  });

  it('skips each option with its value, osls\'s own (--stage, -c, --param) and a boolean', () => {
    const line = ['--stage', 'dev', 'a', '-c', 'other.yml', '--verbose', 'b', '--param', 'k=v', '--key=k1', '-H', 'x=y', '-n', '3', 'c'];
    expect(positionalsAfter(['sluice', 'produce'], argv(line.map((a) => (a === '-H' ? '--header' : a))), PRODUCE)).toEqual(['a', 'b', 'c']);
  });

  it('takes a value that looks like a number, and everything after --', () => {
    expect(positionalsAfter(['sluice', 'produce'], argv(['-t', 'o', '-1', '--', '--not-an-option', '-t']), PRODUCE)).toEqual(['-1', '--not-an-option', '-t']);
  });

  it('leaves a string option without a value when the next argument is an option, as osls does', () => {
    expect(positionalsAfter(['sluice', 'produce'], argv(['--key', '--topic', 'o', 'v']), PRODUCE)).toEqual(['v']);
  });

  it('finds nothing when the command is not in argv', () => {
    expect(positionalsAfter(['sluice', 'produce'], ['sluice', 'tail', 'x'], PRODUCE)).toEqual([]);
  });

  it('reads --no-<name> as osls does: <name> false, no value taken', () => {
    expect(positionalsAfter(['sluice', 'produce'], argv(['-t', 'orders', '--no-verbose', '{"id":1}']), PRODUCE)).toEqual(['{"id":1}']);
  });

  it('refuses an empty argument, where osls stops reading options (a --key after it was lost)', () => {
    expect(() => positionalsAfter(['sluice', 'produce'], argv(['-t', 'orders', 'a', '', '--key', 'k', 'b']), PRODUCE)).toThrow(/an empty argument: osls stops reading options at it/);
  });
});
