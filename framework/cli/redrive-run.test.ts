import { describe, expect, it } from 'vitest';
import { redriveSummary } from './redrive-run.ts';

describe('redriveSummary', () => {
  it('escapes the terminal controls of a target topic a record\'s headers named', () => {
    const report = { read: 2, foreign: 0, selected: 2, sent: 2, to: { 'orders\x1b]52;c;cm0gLXJmIH4=\x07': 1, 'orders\u202e': 1 } };
    expect(redriveSummary(report, 'orders-failed', false)).toBe('sent 2 of 2 records in orders-failed (1 to orders\\x1b]52;c;cm0gLXJmIH4=\\x07, 1 to orders\\u202e)');
  });

  it('names the reduced copies it did not send and where to read their records, not as records Sluice did not write', () => {
    const report = { read: 3, foreign: 1, selected: 2, sent: 1, to: { orders: 1 }, reduced: ['orders-0@7'] };
    expect(redriveSummary(report, 'orders-failed', false)).toBe("sent 1 of 3 records in orders-failed (1 to orders); 1 reduced copy not sent (the record did not fit the destination): read it from orders-0@7; 1 record without Sluice's failure headers left alone");
  });
});
