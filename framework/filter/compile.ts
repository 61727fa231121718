import { ConfigError } from '../errors.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { JsonScalar, JsonValue } from './json.ts';
import { compileMatcher, type ScalarTest } from './operators.ts';
import { validateFilterPattern } from './validate.ts';
import { decodeValue, type RecordValue } from './value.ts';

/**
 * `filterPatterns` -> one predicate over records, built once per trigger. A record passes when
 * any pattern matches ("Your filters are logically ORed together"); a pattern matches when all
 * of its fields do; a field's list matches when any matcher does ("Control which events Lambda
 * sends to your function"). No patterns: every record passes. The value is decoded once per
 * record; the patterns are never re-read.
 *
 * A Kafka pattern can only name `value` (and `$or`), and AWS filters on it only when the pattern
 * and the message agree in format ("Filtering events from Amazon MSK and self-managed Apache
 * Kafka event sources"):
 *
 *   message          | value pattern       | result
 *   plain string     | plain string (list) | filtered on the string
 *   valid JSON       | valid JSON (map)    | filtered on the JSON fields
 *   plain string     | valid JSON          | "metadata filters only"
 *   valid JSON       | plain string        | "metadata filters only"
 *   not UTF-8        | any                 | "metadata filters only"
 *
 * Kafka mappings filter on nothing but `value`, so "metadata filters only" leaves no condition:
 * that part of the pattern is skipped and counts as matched. This is AWS's table taken at its
 * word; AWS does not show it with an example.
 *
 * A value past maxFilterValueBytes (refused from its length, unread) or JSON nested past
 * maxFilterJsonDepth throws: the record's FilterFailed (poller/work-plan.ts), neither kept nor
 * filtered out, as whether it matches was not decided.
 */
export type RecordFilter = (record: KafkaRecord) => boolean;

export function compileFilters(patterns: Array<Record<string, unknown>>): RecordFilter {
  if (patterns.length === 0) return () => true;
  const problems = patterns.flatMap((p, i) => validateFilterPattern(p).map((s) => `filterPatterns[${i}]: ${s}`));
  if (problems.length > 0) throw new ConfigError(`Invalid filter patterns:\n${problems.join('\n')}`);
  const tests = patterns.map(compilePattern);
  return (record) => {
    const value = decodeValue(record.filterValue ?? record.value);
    for (const test of tests) if (test(value)) return true;
    return false;
  };
}

type ValueTest = (value: RecordValue) => boolean;
type NodeTest = (node: JsonValue | undefined) => boolean;

/** Top level: `value` and `$or` of top-level patterns, all of which must hold. */
function compilePattern(pattern: Record<string, unknown>): ValueTest {
  const tests: ValueTest[] = Object.entries(pattern).map(([key, node]) => {
    if (key !== '$or') return compileValue(node);
    const branches = (node as Array<Record<string, unknown>>).map(compilePattern);
    return (value) => branches.some((b) => b(value));
  });
  return (value) => tests.every((t) => t(value));
}

function compileValue(node: unknown): ValueTest {
  if (Array.isArray(node)) {
    const leaf = compileLeaf(node);
    return (v) => (v.kind === 'string' ? leaf(v.text) : v.kind === 'absent' ? leaf(undefined) : true);
  }
  const fields = compileFields(node as Record<string, unknown>);
  return (v) => (v.kind === 'json' ? fields(v.json) : v.kind === 'absent' ? fields(undefined) : true);
}

/**
 * A map of fields, tested against one JSON node. When the node is an array, one element must
 * satisfy the whole map: fields in different elements of an array are not combined, as in
 * EventBridge's matcher (event-ruler's `rulesForJSONEvent`).
 */
function compileFields(pattern: Record<string, unknown>): NodeTest {
  const fields: Array<[string, NodeTest]> = [];
  const ors: NodeTest[][] = [];
  for (const [key, node] of Object.entries(pattern)) {
    if (key === '$or') ors.push((node as Array<Record<string, unknown>>).map(compileFields));
    else fields.push([key, Array.isArray(node) ? compileLeaf(node) : compileFields(node as Record<string, unknown>)]);
  }
  const one = (node: JsonValue | undefined): boolean => {
    const object = node instanceof Map ? node : undefined;
    for (const [key, test] of fields) if (!test(object?.get(key))) return false;
    for (const alternatives of ors) if (!alternatives.some((t) => t(node))) return false;
    return true;
  };
  const test: NodeTest = (node) => {
    if (!Array.isArray(node)) return one(node);
    return node.length === 0 ? one(undefined) : node.some(test);
  };
  return test;
}

/**
 * A list of matchers, tested against a field. The field's values are its scalars: the value
 * itself, or every scalar of an array ("the intersection of the event pattern array and the
 * event array is non-empty"). A map has none: `exists` "only works on leaf nodes".
 */
function compileLeaf(matchers: unknown[]): NodeTest {
  const exists = matchers.filter((m): m is { exists: boolean } => isExists(m));
  const whenPresent = exists.some((m) => m.exists);
  const whenAbsent = exists.some((m) => !m.exists);
  const tests: ScalarTest[] = matchers.filter((m) => !isExists(m)).map(compileMatcher);
  const any = (v: JsonScalar) => tests.some((t) => t(v));
  return (node) => {
    if (node === undefined) return whenAbsent;
    if (!Array.isArray(node) && !(node instanceof Map)) return whenPresent || any(node);
    const scalars = collectScalars(node, []);
    if (scalars.length === 0) return whenAbsent;
    return whenPresent || scalars.some(any);
  };
}

const isExists = (m: unknown): boolean => typeof m === 'object' && m !== null && 'exists' in m;

function collectScalars(node: JsonValue, out: JsonScalar[]): JsonScalar[] {
  if (Array.isArray(node)) for (const item of node) collectScalars(item, out);
  else if (!(node instanceof Map)) out.push(node);
  return out;
}
