import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { recordJson, recordJsonText, recordText } from './record-view.ts';

/** A character a terminal acts on or shows reordered: C0, DEL, C1, line separators, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';

const hostile: KafkaRecord = {
  topic: 'orders', partition: 0, offset: 7, timestamp: 0, timestampType: 'CREATE_TIME',
  key: Buffer.from('k\r\u202e'),
  value: Buffer.from('{"id":1}\rforged line\u2028\u009b31m'),
  headers: [[`trace${OSC52}`, Buffer.from('\x1b[2K')], ['bidi\u2066', Buffer.from('ok\n    failed: nothing')]],
};
const failedCopy: KafkaRecord = {
  ...hostile,
  headers: [
    ['sluice-failure-reason', Buffer.from(`RetryAttemptsExhausted${OSC52}`)],
    ['sluice-failure-attempts', Buffer.from('3')],
    ['sluice-failure-error', Buffer.from('Error: boom\x1b[2K\rall good\nsecond line')],
    ['sluice-source-topic', Buffer.from('orders\x1b[8m')],
    ['sluice-source-partition', Buffer.from('2')],
    ['sluice-source-offset', Buffer.from('41')],
    ...hostile.headers,
  ],
};

describe('how tail shows a record with terminal controls in it', () => {
  it('escapes every control, line separator and bidi character of key, value, headers, reason, error and source, one line each', () => {
    for (const r of [hostile, failedCopy]) {
      const lines = recordText(r).split('\n');
      expect(lines).toHaveLength(r === hostile ? 2 : 3);
      for (const line of lines) expect(line).not.toMatch(TERMINAL_CONTROL);
    }
    expect(recordText(failedCopy)).toBe([
      'orders-0@7  1970-01-01T00:00:00.000Z  key=k\\r\\u202e  {"id":1}\\rforged line\\u2028\\x9b31m',
      '    failed: RetryAttemptsExhausted\\x1b]52;c;cm0gLXJmIH4=\\x07 after 3 attempts, from orders\\x1b[8m-2@41: Error: boom\\x1b[2K\\rall good',
      '    headers: trace\\x1b]52;c;cm0gLXJmIH4=\\x07=base64:G1sySw== bidi\\u2066=ok\\n    failed: nothing',
    ].join('\n'));
  });

  it('with --json, prints the same value with JSON escapes only', () => {
    for (const r of [hostile, failedCopy]) {
      const line = recordJsonText(r);
      expect(line).not.toMatch(TERMINAL_CONTROL);
      expect(JSON.parse(line)).toEqual(recordJson(r));
    }
  });
});
