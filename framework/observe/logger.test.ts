import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

/** A character a terminal acts on or shows reordered: C0, DEL, C1, line separators, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'bad header \x1b]52;c;cm0gLXJmIH4=\x07\x1b[2K\rforged\nline\u202e';

describe('the logger', () => {
  it('prints what a message or a field quotes from a record with its terminal controls escaped, further lines indented', () => {
    const lines: string[] = [];
    const log = createLogger('t', { format: 'text', write: (l) => lines.push(l) });
    log.warn(`decode failed: ${HOSTILE}`, { header: 'x\x1b[8m', error: new Error(HOSTILE), detail: { name: '\u2066' } });
    expect(lines).toHaveLength(1);
    const [first, second, ...more] = lines[0]!.split('\n');
    expect(more).toEqual([]);
    expect(first).toMatch(/WARN {2}\[t\] decode failed: bad header \\x1b\]52;c;cm0gLXJmIH4=\\x07\\x1b\[2K\\rforged$/);
    expect(second).toMatch(/^ {4}line\\u202e {2}header=x\\x1b\[8m /);
    expect(lines[0]!.replaceAll('\n', '')).not.toMatch(TERMINAL_CONTROL);
  });

  it('as JSON, the same values with JSON escapes only', () => {
    const lines: string[] = [];
    createLogger('t', { format: 'json', write: (l) => lines.push(l) }).error(HOSTILE, { name: '\u2028\x9b' });
    expect(lines[0]).not.toMatch(TERMINAL_CONTROL);
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: HOSTILE, name: '\u2028\x9b' });
  });

  it('as JSON, keeps its own message, level, time and namespace when a field is named like one', () => {
    const lines: string[] = [];
    createLogger('t', { format: 'json', write: (l) => lines.push(l) }).warn('what to do', { message: 'Group authorization failed.', level: 'x', error: 30 });
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: 'what to do', level: 'warn', namespace: 't', field_message: 'Group authorization failed.', field_level: 'x', error: 30 });
  });
});
