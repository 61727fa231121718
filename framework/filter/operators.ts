import { JsonNumber, type JsonScalar } from './json.ts';

/**
 * One matcher of a leaf list, compiled to a test of one scalar value of the record
 * ("Filter rule syntax" in "Control which events Lambda sends to your function", and the
 * EventBridge operator pages it defers to). `exists` is not here: it asks whether a field has a
 * value at all, so the leaf compiler in compile.ts handles it. Input is a validated matcher.
 */
export type ScalarTest = (value: JsonScalar) => boolean;

export function compileMatcher(matcher: unknown): ScalarTest {
  if (typeof matcher === 'string') return (v) => v === matcher;
  if (typeof matcher === 'boolean') return (v) => v === matcher;
  if (matcher === null) return (v) => v === null;
  if (typeof matcher === 'number') return numberLiteral(matcher);
  const [op, arg] = Object.entries(matcher as Record<string, unknown>)[0]!;
  switch (op) {
    case 'prefix':
      return affix(arg, (v, a) => v.startsWith(a));
    case 'suffix':
      return affix(arg, (v, a) => v.endsWith(a));
    case 'equals-ignore-case': {
      const want = (arg as string).toLowerCase();
      return (v) => typeof v === 'string' && v.toLowerCase() === want;
    }
    case 'anything-but':
      return anythingBut(arg as string | number | string[] | number[]);
    case 'numeric':
      return numeric(arg as Array<string | number>);
    default:
      throw new Error(`compileMatcher: unvalidated operator ${op}`);
  }
}

/**
 * "For numbers, Lambda also uses string representation. For example, 300, 300.0, and 3.0e2 are
 * not considered equal." The pattern arrives as a JS number, so its text is the shortest form
 * (a pattern written 3.0e2 reaches us as 300).
 */
function numberLiteral(n: number): ScalarTest {
  const text = String(n);
  return (v) => v instanceof JsonNumber && v.text === text;
}

/** prefix / suffix, plain or `{ "equals-ignore-case": "..." }`; strings only. */
function affix(arg: unknown, test: (value: string, affix: string) => boolean): ScalarTest {
  if (typeof arg === 'string') return (v) => typeof v === 'string' && test(v, arg);
  const folded = (arg as { 'equals-ignore-case': string })['equals-ignore-case'].toLowerCase();
  return (v) => typeof v === 'string' && test(v.toLowerCase(), folded);
}

/**
 * Matches a present value that is none of the listed ones: a value of another type (a number
 * against a list of strings, null, a boolean) is "anything but" them too. Numbers compare by value.
 */
function anythingBut(arg: string | number | string[] | number[]): ScalarTest {
  const list: Array<string | number> = Array.isArray(arg) ? arg : [arg];
  if (typeof list[0] === 'number') {
    const excluded = new Set(list as number[]);
    return (v) => !(v instanceof JsonNumber && excluded.has(v.value));
  }
  const excluded = new Set(list as string[]);
  return (v) => typeof v !== 'string' || !excluded.has(v);
}

/** `["=", n]`, one bound, or a lower bound then an upper bound; JSON numbers only. */
function numeric(spec: Array<string | number>): ScalarTest {
  let low = -Infinity;
  let high = Infinity;
  let lowOpen = false;
  let highOpen = false;
  for (let i = 0; i < spec.length; i += 2) {
    const op = spec[i] as string;
    const n = spec[i + 1] as number;
    if (op === '=') {
      low = high = n;
    } else if (op === '>' || op === '>=') {
      low = n;
      lowOpen = op === '>';
    } else {
      high = n;
      highOpen = op === '<';
    }
  }
  return (v) => {
    if (!(v instanceof JsonNumber)) return false;
    const x = v.value;
    return (lowOpen ? x > low : x >= low) && (highOpen ? x < high : x <= high);
  };
}
