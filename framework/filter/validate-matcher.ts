/**
 * Checks one leaf list of a filter pattern: `"field": [ matcher, ... ]`. The operators are the
 * ones Lambda documents ("Filter rule syntax" in "Control which events Lambda sends to your
 * function") plus the prefix/suffix equals-ignore-case forms EventBridge marks as supported for
 * pipes, which filter the way event source mappings do ("Comparison operators for use in event
 * patterns in Amazon EventBridge", "Pipe support" column; "Amazon EventBridge Pipes filtering").
 */
export const OPERATORS = ['prefix', 'suffix', 'equals-ignore-case', 'anything-but', 'numeric', 'exists'] as const;

/** EventBridge event-bus operators that Lambda's list lacks (wildcard is marked "Pipe support: No"). */
const BUS_ONLY: Record<string, string> = {
  wildcard: 'use prefix or suffix, or filter in the handler',
  cidr: 'list the addresses, use prefix, or filter in the handler',
};

const NUMERIC_HELP =
  'numeric needs pairs of an operator (=, <, <=, >, >=) and a number, e.g. { "numeric": [">", 0, "<=", 5] }';

/** How a value is named in a problem sentence; safe for anything (BigInt, symbols, cycles). */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  return typeof v === 'string' ? `string ${JSON.stringify(v)}` : `${typeof v} ${String(v)}`;
}

/** JSON text of a config value, or its description when it has none. */
export function showJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? describe(v);
  } catch {
    return describe(v);
  }
}

export const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkLeaf(list: unknown[], path: string, problems: string[]): void {
  if (list.length === 0) {
    problems.push(`${path}: the list of matchers is empty; AWS needs at least one, e.g. ["A"] or [{ "prefix": "A" }].`);
    return;
  }
  list.forEach((m) => checkMatcher(m, path, problems));
}

function checkMatcher(m: unknown, path: string, problems: string[]): void {
  if (typeof m === 'string' || typeof m === 'boolean' || m === null) return;
  if (typeof m === 'number') {
    if (!Number.isFinite(m)) problems.push(`${path}: ${m} is not a JSON number; match a finite number.`);
    return;
  }
  if (!isMap(m)) {
    problems.push(
      `${path}: a matcher is a string, a number, true, false, null, or a one-operator map such as { "prefix": "A" }; got ${describe(m)}.`,
    );
    return;
  }
  const ops = Object.keys(m);
  if (ops.length !== 1) {
    const found = ops.length === 0 ? 'none' : ops.join(', ');
    problems.push(`${path}: a matcher map takes exactly one operator (one of ${OPERATORS.join(', ')}); found ${found}.`);
    return;
  }
  const op = ops[0]!;
  const problem = checkOperator(op, m[op]);
  if (problem !== undefined) problems.push(`${path}: ${problem}`);
}

function checkOperator(op: string, arg: unknown): string | undefined {
  switch (op) {
    case 'prefix':
    case 'suffix':
      if (typeof arg === 'string' || isIgnoreCase(arg)) return undefined;
      return `${op} needs a string, or { "equals-ignore-case": "<string>" } to ignore case, e.g. { "${op}": "us-" }.`;
    case 'equals-ignore-case':
      return typeof arg === 'string' ? undefined : `equals-ignore-case needs a string, e.g. { "equals-ignore-case": "alice" }.`;
    case 'exists':
      return typeof arg === 'boolean' ? undefined : `exists needs true or false, e.g. { "exists": true }.`;
    case 'anything-but':
      return checkAnythingBut(arg);
    case 'numeric':
      return checkNumeric(arg);
  }
  const busOnly = BUS_ONLY[op];
  if (busOnly !== undefined) {
    return `${op} works on EventBridge event buses but not in Lambda event filtering; ${busOnly}.`;
  }
  return `"${op}" is not a Lambda filter operator; use one of ${OPERATORS.join(', ')}.`;
}

const isIgnoreCase = (arg: unknown): boolean =>
  isMap(arg) && Object.keys(arg).length === 1 && typeof arg['equals-ignore-case'] === 'string';

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function checkAnythingBut(arg: unknown): string | undefined {
  if (typeof arg === 'string' || isNumber(arg)) return undefined;
  if (Array.isArray(arg) && arg.length > 0 && (arg.every((v) => typeof v === 'string') || arg.every(isNumber))) {
    return undefined;
  }
  if (isMap(arg)) {
    return (
      `anything-but with ${Object.keys(arg).join(', ') || 'a map'} works on EventBridge event buses but not in ` +
      `Lambda event filtering; list the exact values to exclude, e.g. { "anything-but": ["error", "warn"] }.`
    );
  }
  return (
    `anything-but needs a string, a number, or a non-empty list of only strings or only numbers, ` +
    `e.g. { "anything-but": ["error", "warn"] }; got ${describe(arg)}.`
  );
}

const LOWER = new Set(['>', '>=']);
const UPPER = new Set(['<', '<=']);

function checkNumeric(arg: unknown): string | undefined {
  if (!Array.isArray(arg)) return `${NUMERIC_HELP}; got ${describe(arg)}.`;
  const [op1, n1, op2, n2] = arg as unknown[];
  const pairOk = (op: unknown, n: unknown) => typeof op === 'string' && isNumber(n);
  if (arg.length === 2 && pairOk(op1, n1) && (op1 === '=' || LOWER.has(op1 as string) || UPPER.has(op1 as string))) {
    return undefined;
  }
  if (arg.length === 4 && pairOk(op1, n1) && pairOk(op2, n2) && LOWER.has(op1 as string) && UPPER.has(op2 as string)) {
    return (n1 as number) < (n2 as number)
      ? undefined
      : `numeric range ${JSON.stringify(arg)} is empty: the lower bound must be below the upper bound.`;
  }
  if (arg.length === 4) {
    return `${NUMERIC_HELP}; a range is a lower bound (> or >=) then an upper bound (< or <=), and = stands alone.`;
  }
  return `${NUMERIC_HELP}; got ${showJson(arg)}.`;
}
