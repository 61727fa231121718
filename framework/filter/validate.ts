import { checkLeaf, describe, isMap, OPERATORS, showJson } from './validate-matcher.ts';

/**
 * Checks one filter pattern (already parsed from JSON or YAML) against what Lambda accepts for a
 * Kafka event source mapping. Returns one full sentence per problem, each starting with the path
 * inside the pattern (`value.amount: ...`, `value.$or[1].kind: ...`); a problem with the pattern
 * as a whole has no path. An empty list means the pattern is valid.
 *
 * Sources: "Filtering events from Amazon MSK and self-managed Apache Kafka event sources" (only
 * the `value` key), "Control which events Lambda sends to your function" (the syntax), and
 * EventBridge's rules for the syntax Lambda shares: no empty maps or lists, `$or` lists at least
 * two maps, operator names are not field names inside `$or`. The 4,096-character limit on a
 * pattern is checked by the config loader (framework/config/filters.ts).
 */
export function validateFilterPattern(pattern: unknown): string[] {
  const problems: string[] = [];
  if (!isMap(pattern)) {
    problems.push(
      `The filter pattern must be a map such as { "value": { "device_ID": [{ "prefix": "AB" }] } }; got ${describe(pattern)}.`,
    );
    return problems;
  }
  checkTop(pattern, '', problems);
  return problems;
}

/** Kafka mappings "only support filtering on the value key"; `$or` may combine such patterns. */
function checkTop(pattern: Record<string, unknown>, path: string, problems: string[]): void {
  const keys = Object.keys(pattern);
  if (keys.length === 0) {
    problems.push(`${at(path)}an empty map is not a pattern; AWS rejects it. Filter on value, e.g. { "value": ["A"] }.`);
  }
  for (const key of keys) {
    const child = pattern[key];
    const where = join(path, key);
    if (key === 'value') checkNode(child, where, false, problems);
    else if (key === '$or') checkOr(child, where, problems, (branch, p) => checkTop(branch, p, problems));
    else {
      problems.push(
        `${where}: Kafka event source mappings only support filtering on the value key, so AWS does not filter on ` +
          `"${key}"; put the condition under value, or check ${key} in the handler.`,
      );
    }
  }
}

/** Inside `value`: a leaf list of matchers, or a map of nested fields. */
function checkNode(node: unknown, path: string, inOr: boolean, problems: string[]): void {
  if (Array.isArray(node)) {
    checkLeaf(node, path, problems);
  } else if (isMap(node)) {
    checkFields(node, path, inOr, problems);
  } else {
    const scalar = typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean';
    const hint = scalar ? ` (to match it exactly, write [${showJson(node)}])` : '';
    problems.push(
      `${path}: must be a list of matchers such as ["A"] or [{ "prefix": "A" }], or a map of nested fields; ` +
        `got ${describe(node)}${hint}.`,
    );
  }
}

function checkFields(fields: Record<string, unknown>, path: string, inOr: boolean, problems: string[]): void {
  const keys = Object.keys(fields);
  if (keys.length === 0) {
    problems.push(`${path}: an empty map matches nothing and AWS rejects it; name at least one field.`);
  }
  for (const key of keys) {
    const where = join(path, key);
    if (key === '$or') {
      checkOr(fields[key], where, problems, (branch, p) => checkFields(branch, p, true, problems));
      continue;
    }
    if (inOr && RESERVED_IN_OR.has(key)) {
      problems.push(
        `${where}: "${key}" is an operator name, which AWS does not accept as a field name inside $or; ` +
          `put operators in a list, e.g. "field": [{ "${key}": ... }].`,
      );
      continue;
    }
    checkNode(fields[key], where, inOr, problems);
  }
}

function checkOr(
  list: unknown,
  path: string,
  problems: string[],
  checkBranch: (branch: Record<string, unknown>, path: string) => void,
): void {
  if (!Array.isArray(list) || list.length < 2 || !list.every(isMap)) {
    problems.push(
      `${path}: $or needs a list of at least two maps, each a pattern, ` +
        `e.g. "$or": [{ "Location": ["New York"] }, { "Day": ["Monday"] }].`,
    );
    return;
  }
  list.forEach((branch, i) => checkBranch(branch, `${path}[${i}]`));
}

/** Operator words that event patterns reserve inside `$or`. */
const RESERVED_IN_OR = new Set<string>([...OPERATORS, 'wildcard', 'cidr', 'exactly', '=', '<', '<=', '>', '>=']);

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);
const at = (path: string): string => (path === '' ? '' : `${path}: `);
