import { describe, expect, it } from 'vitest';
import { redriveSummary } from './redrive-run.ts';

describe('redriveSummary', () => {
  it('escapes the terminal controls of a target topic a record\'s headers named', () => {
    const report = { read: 2, foreign: 0, selected: 2, sent: 2, to: { 'orders\x1b]52;c;cm0gLXJmIH4=\x07': 1, 'orders\u202e': 1 } };
    expect(redriveSummary(report, 'orders-failed', false)).toBe('sent 2 of 2 records in orders-failed (1 to orders\\x1b]52;c;cm0gLXJmIH4=\\x07, 1 to orders\\u202e)');
  });
});
