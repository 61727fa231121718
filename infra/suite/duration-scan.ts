/**
 * Finds assertions on a measured duration in test sources: an `expect(…)` whose subject reads a
 * time (an identifier ending in `Ms`, a duration, elapsed or took, a timestamp such as `fetchedAt`,
 * `Date.now()`) and orders it against a bound (`toBeLessThan`, `toBeGreaterThanOrEqual`, …,
 * `toBeCloseTo`, or `expect(a < b).toBe(true)`). Such a test fails on a busy machine or a timer
 * that fires a millisecond early (`durationMs >= 1500` got 1499 in CI); a test asserts the
 * outcome instead (the timeout's message, the attempt count, what was committed), and speed is a
 * benchmark's job (bench/). The unit tier runs it over the suite (duration-scan.test.ts). Pure.
 */

export interface Finding {
  file: string;
  line: number;
  text: string;
}

const ORDERING = /^\s*(?:\.not)?\s*\.(toBeLessThan|toBeLessThanOrEqual|toBeGreaterThan|toBeGreaterThanOrEqual|toBeCloseTo)\s*\(/;
const TRUTH = /^\s*(?:\.not)?\s*\.(toBe\s*\(\s*(true|false)\s*\)|toBeTruthy\s*\(|toBeFalsy\s*\()/;

/** Identifiers and calls that read a time. */
const TIME = [
  /\b[A-Za-z_$][\w$]*Ms\b/, // tookMs, durationMs, sessionTimeoutMs
  /\b[A-Za-z_$][\w$]*_MS\b/, // HEARTBEAT_INTERVAL_MS
  /\bms\b/,
  /(duration|elapsed|took|latency|seconds|slowest|fastest|delay)/i,
  /\b[a-z][\w$]*At\b/, // fetchedAt, startedAt
  /\.at\b(?!\s*\()/, // an event's timestamp, not Array.prototype.at()
  /\bDate\.now\s*\(|\bperformance\.now\s*\(|\bhrtime\b/,
];

export function durationAssertions(file: string, source: string): Finding[] {
  const findings: Finding[] = [];
  const code = blank(source);
  const re = /\bexpect(?:\.soft)?\s*\(/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const open = m.index + m[0].length;
    const close = matching(code, open);
    if (close < 0) continue;
    // What the subject is at its top level: `ends.filter((e) => e.at < t).length` is a count.
    const subject = topLevel(firstArgument(code.slice(open, close)));
    const after = code.slice(close + 1, close + 80);
    const ordering = ORDERING.exec(after);
    const compared = TRUTH.test(after) && /[<>]/.test(subject.replace(/=>/g, ''));
    // The bound may stand on either side: expect(15_000).toBeGreaterThan(tookMs).
    const bound = ordering ? topLevel(firstArgument(code.slice(close + 1 + ordering[0].length, Math.max(close + 1 + ordering[0].length, matching(code, close + 1 + ordering[0].length))))) : '';
    const line = source.slice(0, m.index).split('\n').length;
    if ((ordering || compared) && TIME.some((t) => t.test(subject) || t.test(bound)) && !allowed(source, line)) {
      findings.push({ file, line, text: source.split('\n')[line - 1]!.trim() });
    }
  }
  return findings;
}

/**
 * `// duration-scan: allowed, <why>` on the line before (or at the end of the line) lets one through:
 * for a bound that is no measurement of the test's (an instant the product stamped against the
 * record's own timestamp, a sanity bound such as >= 0). The why is for the reviewer.
 */
function allowed(source: string, line: number): boolean {
  const lines = source.split('\n');
  return [lines[line - 2] ?? '', lines[line - 1] ?? ''].some((l) => /\/\/ duration-scan: allowed, \S/.test(l));
}

/** Index of the `)` closing the `(` just before `from`; -1 when unbalanced. Strings and templates are skipped. */
function matching(s: string, from: number): number {
  let depth = 1;
  for (let i = from; i < s.length; i += 1) {
    const c = s[i]!;
    if (c === '"' || c === "'" || c === '`') {
      i = skipString(s, i);
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) return c === ')' ? i : -1;
    }
  }
  return -1;
}

function skipString(s: string, start: number): number {
  const quote = s[start];
  for (let i = start + 1; i < s.length; i += 1) {
    if (s[i] === '\\') i += 1;
    else if (s[i] === quote) return i;
  }
  return s.length;
}

/** The source with string literals and comments blanked (newlines kept, so positions and lines hold). */
function blank(s: string): string {
  const out = s.split('');
  const clear = (from: number, to: number) => {
    for (let j = from; j <= to && j < out.length; j += 1) if (out[j] !== '\n') out[j] = ' ';
  };
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = skipString(s, i);
      clear(i + 1, end - 1);
      i = end;
    } else if (c === '/' && s[i + 1] === '/') {
      const end = s.indexOf('\n', i);
      clear(i, end < 0 ? s.length : end - 1);
      i = end < 0 ? s.length : end;
    } else if (c === '/' && s[i + 1] === '*') {
      const end = s.indexOf('*/', i + 2);
      clear(i, end < 0 ? s.length : end + 1);
      i = end < 0 ? s.length : end + 1;
    }
  }
  return out.join('');
}

/** The text with whatever stands inside its brackets removed: `a.filter((r) => r.at < t).length` -> `a.filter().length`. */
function topLevel(s: string): string {
  let out = '';
  let depth = 0;
  for (const c of s) {
    if (c === ')' || c === ']' || c === '}') depth -= 1;
    if (depth === 0) out += c;
    if (c === '(' || c === '[' || c === '{') depth += 1;
  }
  return out;
}

/** `expect(subject, 'message')`: the message is not the subject. */
function firstArgument(args: string): string {
  let depth = 0;
  for (let i = 0; i < args.length; i += 1) {
    const c = args[i]!;
    if (c === '"' || c === "'" || c === '`') i = skipString(args, i);
    else if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') depth -= 1;
    else if (c === ',' && depth === 0) return args.slice(0, i);
  }
  return args;
}
