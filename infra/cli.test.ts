import { expect, it } from 'vitest';
import { parseLines } from './cli.ts';

it('parseLines takes --lines N, 30 without it, and names a bad value', () => {
  expect(parseLines(['--lines', '100'])).toBe(100);
  expect(parseLines([])).toBe(30);
  expect(() => parseLines(['--lines'])).toThrow('--lines needs a positive integer (got ""), e.g. --lines 100');
  expect(() => parseLines(['--lines', '0'])).toThrow('--lines needs a positive integer (got "0"), e.g. --lines 100');
});
