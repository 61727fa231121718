import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { needsEscape, printable, printableIndented, printableJson } from './printable.ts';

/** A character a terminal acts on or shows reordered: C0, DEL, C1, line separators, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('printable', () => {
  it('shows escape sequences, carriage returns and bidi overrides as visible escapes', () => {
    expect(printable('a\x1b]52;c;ZXZpbA==\x07b')).toBe('a\\x1b]52;c;ZXZpbA==\\x07b');
    expect(printable('\x1b[2Kok\rforged\x7f\x9b')).toBe('\\x1b[2Kok\\rforged\\x7f\\x9b');
    expect(printable('user\u202etxt.exe\u2066\u2069\u2028\u2029\u200e')).toBe('user\\u202etxt.exe\\u2066\\u2069\\u2028\\u2029\\u200e');
    expect(printable('tab\there\nline')).toBe('tab\\there\\nline');
    expect(printable('Error: x\n    at f (a.ts:1)\r', { lines: true })).toBe('Error: x\n    at f (a.ts:1)\\r');
    expect(printable('plain ünïcode, "quotes" and \\ backslashes')).toBe('plain ünïcode, "quotes" and \\ backslashes');
  });

  it('keeps the lines of text that spans lines, each following one indented', () => {
    expect(printableIndented('Build failed:\nfile.ts:1:2: ERROR\r\x1b[2K')).toBe('Build failed:\n    file.ts:1:2: ERROR\\r\\x1b[2K');
  });

  it('leaves no terminal control in any text, and keeps the rest (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(printable(s)).not.toMatch(TERMINAL_CONTROL);
        expect(printable(s, { lines: true }).replaceAll('\n', '')).not.toMatch(TERMINAL_CONTROL);
        expect(needsEscape(s)).toBe(printable(s) !== s);
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes JSON text with the same value and no terminal control', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (v, s) => {
        for (const json of [JSON.stringify({ v, s }), JSON.stringify({ v, s }, null, 2)]) {
          const safe = printableJson(json);
          expect(safe.replaceAll('\n', '')).not.toMatch(TERMINAL_CONTROL);
          expect(JSON.parse(safe)).toEqual(JSON.parse(json));
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
