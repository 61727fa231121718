/**
 * Untrusted strings (keys, headers, values, reasons, log lines) can carry characters that are
 * invisible or that rearrange what is shown around them: C0/C1 controls (an ANSI escape), line and
 * paragraph separators, bidi marks, overrides and isolates (U+202E), zero-width characters,
 * noncharacters (U+FFFE/U+FFFF), lone surrogates and tag characters. These helpers show each one as
 * a `\u{..}` escape instead, so the page says what the bytes are. Rendering stays text (Preact).
 */

const INVISIBLE =
  /[\u{0}-\u{1f}\u{7f}-\u{9f}\u{ad}\u{61c}\u{180e}\u{200b}-\u{200f}\u{2028}-\u{202e}\u{2060}-\u{2064}\u{2066}-\u{206f}\u{d800}-\u{dfff}\u{feff}\u{fff9}-\u{fffb}\u{fffe}\u{ffff}\u{e0000}-\u{e007f}]/gu;

/** A piece of a string: plain text, or the escape standing for one invisible character. */
export interface VisiblePart {
  text: string;
  escaped: boolean;
}

function escapeOf(ch: string): string {
  return `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`;
}

/**
 * Splits `s` into text and escapes. With `multiline`, newlines, tabs and CRLF stay as they are
 * (for `<pre>` blocks); a lone CR is still shown, since it would hide what precedes it on a terminal.
 */
export function visibleParts(s: string, multiline = false): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let last = 0;
  for (const match of s.matchAll(INVISIBLE)) {
    const ch = match[0];
    const at = match.index;
    if (multiline && (ch === '\n' || ch === '\t' || (ch === '\r' && s[at + 1] === '\n'))) continue;
    if (at > last) parts.push({ text: s.slice(last, at), escaped: false });
    parts.push({ text: escapeOf(ch), escaped: true });
    last = at + ch.length;
  }
  if (last < s.length || parts.length === 0) parts.push({ text: s.slice(last), escaped: false });
  return parts;
}

/** `s` with every invisible character written as its escape (for titles and other plain strings). */
export function visible(s: string, multiline = false): string {
  return visibleParts(s, multiline)
    .map((part) => part.text)
    .join('');
}

/** An array of numbers spread over lines (an AWS event's header bytes): raw newlines are never inside a JSON string. */
const NUMBER_ARRAY = /\[\n[ \d.eE+,\n-]*\]/g;

/**
 * `value` as pretty JSON that parses back to the same value, with the invisible characters that
 * JSON.stringify leaves raw (DEL, C1, U+2028, bidi, …) written as `\uXXXX` escapes: they can only
 * occur inside JSON strings, where the escape means the same character. Arrays of numbers are
 * kept on one line.
 */
export function prettyJson(value: unknown): string {
  const text = (JSON.stringify(value, null, 2) ?? String(value)).replace(
    NUMBER_ARRAY,
    (array) => `[${array.slice(1, -1).trim().split(/\s*,\s*/).join(', ')}]`,
  );
  return text.replace(INVISIBLE, (ch) => {
    if (ch === '\n') return ch; // the indentation's (JSON.stringify escapes C0 inside strings)
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
