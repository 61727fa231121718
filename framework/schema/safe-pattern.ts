/**
 * The regular expressions of a registered JSON Schema's `pattern` / `patternProperties`, run by
 * RE2 (re2js, a pure-JavaScript port) instead of the native RegExp: Ajv runs them on the
 * poller's thread, where a backtracking engine takes exponential time on a crafted value
 * (`(a+)+`, `(a|a)*`: 2.6 s for 27 characters). RE2 takes time linear in the value, at most
 * the pattern's program size per character; `maxPatternSteps` bounds that product over one
 * record, since a linear cost times a 1 MiB value is still seconds.
 *
 * A pattern RE2 cannot run (a backreference, a lookahead or lookbehind), or one longer than
 * MAX_PATTERN_CHARS, makes the schema uncompilable: its records fail with DESERIALIZATION_ERROR.
 * A pattern is first compiled by the native RegExp (never run), so one that is not ECMA-262 is
 * refused as before; `.`, `\s` and `\S` are rewritten to their ECMA-262 meaning (RE2's `.`
 * matches `\r`, its `\s` is ASCII), except `\S` inside a class, which keeps RE2's ASCII meaning.
 */
import { RE2JS } from 're2js';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { DecodeError } from './decode-error.ts';

export const MAX_PATTERN_CHARS = 1_000;

export class UnsafePattern extends Error {
  override readonly name = 'UnsafePattern';
}

/** What one record's pattern tests may still cost: characters tested times the pattern's program size. */
export interface PatternBudget {
  left: number;
}

export interface PatternEngine {
  (pattern: string, flags: string): { test(s: string): boolean };
  /** What Ajv's standalone code would call; Sluice generates none, Ajv requires the property. */
  code: string;
}

/**
 * Ajv's `code.regExp` for one schema: patterns compiled by RE2, their program sizes charged to
 * maxPatternProgram as they are compiled (past it the schema does not compile), each test charged to `budget`.
 */
export function linearRegExp(budget: PatternBudget, programLeft: number = INPUT_BOUNDS.maxPatternProgram): PatternEngine {
  let left = programLeft;
  const engine = (pattern: string, flags: string) => {
    const re = compileLinear(pattern, flags);
    const size = re.programSize();
    left -= size;
    if (left < 0) {
      throw new UnsafePattern(`the schema's patterns compile to more than ${programLeft} RE2 instructions (maxPatternProgram; counted repeats expand: ${JSON.stringify(pattern.slice(0, 80))} is ${size})`);
    }
    const name = `/${pattern}/${flags}`;
    return {
      test(s: string): boolean {
        budget.left -= s.length * size;
        if (budget.left < 0) {
          throw new DecodeError(`testing the record against the schema's patterns would take more than ${INPUT_BOUNDS.maxPatternSteps} steps (maxPatternSteps; characters tested times the pattern's size, here ${JSON.stringify(pattern.slice(0, 80))})`);
        }
        return re.test(s);
      },
      toString: () => name,
    };
  };
  return Object.assign(engine, { code: 'require("re2js").RE2JS' });
}

/** The pattern as RE2 runs it, or UnsafePattern saying why it cannot be. */
export function compileLinear(pattern: string, flags: string): RE2JS {
  const shown = JSON.stringify(pattern.slice(0, 80));
  if (pattern.length > MAX_PATTERN_CHARS) throw new UnsafePattern(`the schema's pattern ${shown} is longer than ${MAX_PATTERN_CHARS} characters`);
  new RegExp(pattern, flags); // an ECMA-262 syntax error is thrown as it is
  const { rewritten, unsupported } = toRe2Syntax(pattern);
  if (unsupported) throw new UnsafePattern(`the schema's pattern ${shown} uses ${unsupported}, which has no linear-time match (RE2 refuses it): write the pattern without it`);
  try {
    return RE2JS.compile(RE2JS.translateRegExp(rewritten));
  } catch (e) {
    throw new UnsafePattern(`the schema's pattern ${shown} cannot run in linear time: ${(e as Error).message}`);
  }
}

/** ECMA-262 whitespace (`\s` with the u flag), as a class body. */
const JS_SPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * A pattern the native RegExp accepted, with `.`, `\s`, `\S` spelled out, and what it uses that
 * RE2 lacks. Valid ECMA-262 with the u flag has `\1`-`\9` and `\k` only as backreferences.
 */
function toRe2Syntax(p: string): { rewritten: string; unsupported?: string } {
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      const e = p[i + 1] ?? '';
      i++;
      if (/[1-9k]/.test(e)) return { rewritten: p, unsupported: 'a backreference' };
      if (e === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (e === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else out += `\\${e}`;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      // In ECMA-262 `[]` matches nothing and `[^]` anything: a `]` there ends the class (translateRegExp spells both for RE2).
      const empty = p.startsWith('[]', i) ? '[]' : p.startsWith('[^]', i) ? '[^]' : '';
      if (empty) {
        out += empty;
        i += empty.length - 1;
        continue;
      }
      inClass = true;
    } else if (p.startsWith('(?=', i) || p.startsWith('(?!', i) || p.startsWith('(?<=', i) || p.startsWith('(?<!', i)) {
      return { rewritten: p, unsupported: 'a lookahead or lookbehind' };
    } else if (c === '.') {
      out += '[^\\n\\r\\u2028\\u2029]';
      continue;
    }
    out += c;
  }
  return { rewritten: out };
}
