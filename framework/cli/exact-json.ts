/**
 * JSON.parse, except that an integer past 2^53 becomes a BigInt instead of the double nearest it:
 * `produce --subject` writes Avro longs and Protobuf int64s, which a double would round
 * (9007199254740993 was written as …992).
 */
/** A string no JSON text means: its escape in the text, its value after parsing. */
const MARK = '\u0000sluice-bigint:';
const MARK_ESCAPED = '\\u0000sluice-bigint:';

export function parseExact(text: string): unknown {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c !== '-' && (c < '0' || c > '9')) continue;
    let j = i + 1;
    while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
    const token = text.slice(i, j);
    if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
      out += `${text.slice(from, i)}"${MARK_ESCAPED}${token}"`;
      from = j;
    }
    i = j - 1;
  }
  const marked = out + text.slice(from);
  return JSON.parse(marked, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value));
}
