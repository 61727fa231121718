/**
 * Pure: the regular expressions a registered JSON Schema's `pattern` / `patternProperties` may
 * compile to. Ajv runs them with the native RegExp on the poller's thread, where a pattern with a
 * quantified group that holds an unbounded quantifier (`(a+)+`, `(\w*\s?)*`: star height above
 * one, the shape `safe-regex` refuses) backtracks exponentially on a crafted value. Such a pattern,
 * or one longer than MAX_PATTERN_CHARS, makes the schema unusable (DESERIALIZATION_ERROR) instead.
 */
export const MAX_PATTERN_CHARS = 1_000;

export class UnsafePattern extends Error {
  override readonly name = 'UnsafePattern';
}

/** Ajv's `code.regExp`: the native RegExp, for patterns that cannot backtrack exponentially. */
export const safeRegExp = Object.assign(
  (pattern: string, flags: string): RegExp => {
    const why = unsafeBecause(pattern);
    if (why) throw new UnsafePattern(`the schema's pattern ${JSON.stringify(pattern.slice(0, 80))} ${why}`);
    return new RegExp(pattern, flags);
  },
  { code: 'new RegExp' },
);

export function unsafeBecause(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_CHARS) return `is longer than ${MAX_PATTERN_CHARS} characters`;
  // Per open group: whether it holds an unbounded quantifier.
  const groups: boolean[] = [];
  let lastGroupUnbounded = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
      lastGroupUnbounded = false;
      continue;
    }
    if (c === '[') {
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      lastGroupUnbounded = false;
      continue;
    }
    if (c === '(') {
      groups.push(false);
      continue;
    }
    if (c === ')') {
      lastGroupUnbounded = groups.pop() ?? false;
      if (lastGroupUnbounded && groups.length) groups[groups.length - 1] = true;
      const next = quantifierAt(pattern, i + 1);
      if (next && lastGroupUnbounded) return 'repeats a group that itself repeats without bound (nested quantifiers backtrack exponentially)';
      continue;
    }
    const q = quantifierAt(pattern, i);
    if (q === 'unbounded' && groups.length) groups[groups.length - 1] = true;
    lastGroupUnbounded = false;
  }
  return undefined;
}

/** `*`, `+` or `{n,}` (unbounded), `{n,m}` with m > 1 (repeating), at `i`. */
function quantifierAt(p: string, i: number): 'unbounded' | 'repeating' | undefined {
  const c = p[i];
  if (c === '*' || c === '+') return 'unbounded';
  if (c !== '{') return undefined;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) return undefined;
  if (m[2] !== undefined && m[3] === '') return 'unbounded';
  return Number(m[3] ?? m[1]) > 1 ? 'repeating' : undefined;
}
