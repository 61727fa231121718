/**
 * Pure: text that a record, a broker or a handler chose, made safe to print on a terminal. Header
 * names and values, keys, failure reasons and errors, member ids: any of them may hold an escape
 * sequence (an OSC 52 clipboard write `\x1b]52;c;…\x07`, a line erase `\x1b[2K`), a carriage
 * return that overwrites the line, or a bidi override that shows text reordered. Every such
 * character is replaced by a visible escape: C0 and C1 controls and DEL as `\xNN` (`\n`, `\r`,
 * `\t` by name), U+2028/U+2029, the bidi embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) and the bidi marks (U+200E, U+200F, U+061C) as `\uNNNN`. A backslash is left
 * as it is: the escapes are for reading, and a command's `--json` output is the exact text.
 */

/** Every character printable() escapes. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same without the newline, for text whose lines the output shows as lines. */
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw of those (it escapes C0 itself). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/**
 * `text` with every control, line-separator and bidi character escaped (see above). With
 * `lines`, a newline is kept: for text the output deliberately shows on several lines (a stack).
 */
export function printable(text: string, o: { lines?: boolean } = {}): string {
  return text.replace(o.lines ? UNSAFE_BUT_NEWLINE : UNSAFE, escape);
}

/**
 * printable() of text that may span lines (a log message quoting a build error), its newlines
 * kept and each following line indented: no line of it can pass for a line of its own (a log
 * line, a record's first line), which all start at the first column.
 */
export function printableIndented(text: string, indent = '    '): string {
  return printable(text, { lines: true }).replaceAll('\n', `\n${indent}`);
}

/** An SGR sequence: colour and style only (`ESC [ … m`), which cannot move the cursor, erase or write the clipboard. */
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * printable() of a line a handler wrote, its colours kept: a handler's own output is the user's
 * (chalk, a logger's levels), but it quotes what records hold (a JSON.parse error quotes its input).
 */
export function printableKeepingColour(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(SGR)) {
    out += printable(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + printable(text.slice(at));
}

/** JSON text (JSON.stringify's) with the characters above that it leaves raw written `\uNNNN`: the same JSON value, safe to print. */
export function printableJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether printable() would change `text`. */
export function needsEscape(text: string): boolean {
  return ANY_UNSAFE.test(text);
}
const ANY_UNSAFE = new RegExp(UNSAFE.source);
