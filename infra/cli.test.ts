import { afterEach, expect, it, vi } from 'vitest';
import { parseLines, usage } from './cli.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

it('parseLines takes --lines N, 30 without it, and names a bad value', () => {
  expect(parseLines(['--lines', '100'])).toBe(100);
  expect(parseLines([])).toBe(30);
  expect(() => parseLines(['--lines'])).toThrow('--lines needs a positive integer (got ""), e.g. --lines 100');
  expect(() => parseLines(['--lines', '0'])).toThrow('--lines needs a positive integer (got "0"), e.g. --lines 100');
});

it('usage: printed on stdout for --help (0) and no command (2), on stderr after an unknown command (2)', () => {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  expect(usage('--help', 'USAGE')).toBe(0);
  expect(usage('-h', 'USAGE')).toBe(0);
  expect(usage(undefined, 'USAGE')).toBe(2);
  expect(usage('strat', 'USAGE')).toBe(2);
  expect(out).toEqual(['USAGE', 'USAGE', 'USAGE']);
  expect(err).toEqual(['unknown command "strat"\nUSAGE']);
});
