import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateFilterPattern } from './validate.ts';

describe('validateFilterPattern accepts', () => {
  it.each<[string, unknown]>([
    // "Filtering events from Amazon MSK and self-managed Apache Kafka event sources"
    ['Kafka doc: device_ID prefix', { value: { device_ID: [{ prefix: 'AB' }] } }],
    ['Kafka doc: plain-string anything-but', { value: [{ 'anything-but': ['error'] }] }],
    // "Control which events Lambda sends to your function", operator table (under value)
    ['null', { value: { UserID: [null] } }],
    ['empty', { value: { LastName: [''] } }],
    ['equals', { value: { Name: ['Alice'] } }],
    ['equals-ignore-case', { value: { Name: [{ 'equals-ignore-case': 'alice' }] } }],
    ['and', { value: { Location: ['New York'], Day: ['Monday'] } }],
    ['or', { value: { PaymentType: ['Credit', 'Debit'] } }],
    ['$or', { value: { $or: [{ Location: ['New York'] }, { Day: ['Monday'] }] } }],
    ['not', { value: { Weather: [{ 'anything-but': ['Raining'] }] } }],
    ['numeric equals', { value: { Price: [{ numeric: ['=', 100] }] } }],
    ['numeric range', { value: { Price: [{ numeric: ['>', 10, '<=', 20] }] } }],
    ['exists', { value: { ProductName: [{ exists: true }] } }],
    ['does not exist', { value: { ProductName: [{ exists: false }] } }],
    ['begins with', { value: { Region: [{ prefix: 'us-' }] } }],
    ['ends with', { value: { FileName: [{ suffix: '.png' }] } }],
    ['console example', { value: { Metadata: [1, 2] } }],
    // EventBridge (syntax Lambda shares; the ignore-case forms are marked "Pipe support: Yes")
    ['prefix ignore case', { value: { service: [{ prefix: { 'equals-ignore-case': 'EventB' } }] } }],
    ['suffix ignore case', { value: { FileName: [{ suffix: { 'equals-ignore-case': '.png' } }] } }],
    ['anything-but single number', { value: { 'x-limit': [{ 'anything-but': 123 }] } }],
    ['anything-but number list', { value: { 'x-limit': [{ 'anything-but': [100, 200, 300] }] } }],
    ['numeric one bound', { value: { 'd-count': [{ numeric: ['<', 10] }] } }],
    ['booleans', { value: { ok: [true, false] } }],
    ['top-level $or', { $or: [{ value: { a: ['1'] } }, { value: ['x'] }] }],
    ['nested $or', { value: { a: { $or: [{ b: ['1'] }, { c: { $or: [{ d: ['2'] }, { e: ['3'] }] } }] } } }],
  ])('%s', (_, pattern) => expect(validateFilterPattern(pattern)).toEqual([]));
});

describe('validateFilterPattern rejects', () => {
  it.each<[string, unknown, string]>([
    ['a non-map', ['value'], 'The filter pattern must be a map such as { "value": { "device_ID": [{ "prefix": "AB" }] } }; got a list.'],
    ['an empty pattern', {}, 'an empty map is not a pattern; AWS rejects it. Filter on value, e.g. { "value": ["A"] }.'],
    ['a key filter', { key: ['a'] }, 'key: Kafka event source mappings only support filtering on the value key, so AWS does not filter on "key"; put the condition under value, or check key in the handler.'],
    ['a metadata filter', { value: ['a'], topic: ['t'] }, 'topic: Kafka event source mappings only support filtering on the value key'],
    ['headers', { headers: { h: ['x'] } }, 'headers: Kafka event source mappings only support filtering on the value key'],
    ['a bare string where a list belongs', { value: { kind: 'order' } }, 'value.kind: must be a list of matchers such as ["A"] or [{ "prefix": "A" }], or a map of nested fields; got string "order" (to match it exactly, write ["order"]).'],
    ['an empty list', { value: { kind: [] } }, 'value.kind: the list of matchers is empty; AWS needs at least one, e.g. ["A"] or [{ "prefix": "A" }].'],
    ['an empty nested map', { value: { kind: {} } }, 'value.kind: an empty map matches nothing and AWS rejects it; name at least one field.'],
    ['a list inside a list', { value: { kind: [['a']] } }, 'value.kind: a matcher is a string, a number, true, false, null, or a one-operator map such as { "prefix": "A" }; got a list.'],
    ['two operators in one map', { value: { kind: [{ prefix: 'a', suffix: 'b' }] } }, 'value.kind: a matcher map takes exactly one operator (one of prefix, suffix, equals-ignore-case, anything-but, numeric, exists); found prefix, suffix.'],
    ['an unknown operator', { value: { kind: [{ contains: 'a' }] } }, 'value.kind: "contains" is not a Lambda filter operator; use one of prefix, suffix, equals-ignore-case, anything-but, numeric, exists.'],
    ['wildcard', { value: { file: [{ wildcard: '*.png' }] } }, 'value.file: wildcard works on EventBridge event buses but not in Lambda event filtering; use prefix or suffix, or filter in the handler.'],
    ['cidr', { value: { ip: [{ cidr: '10.0.0.0/24' }] } }, 'value.ip: cidr works on EventBridge event buses but not in Lambda event filtering'],
    ['prefix with a number', { value: { a: [{ prefix: 1 }] } }, 'value.a: prefix needs a string, or { "equals-ignore-case": "<string>" } to ignore case, e.g. { "prefix": "us-" }.'],
    ['suffix with another operator inside', { value: { a: [{ suffix: { prefix: 'x' } }] } }, 'value.a: suffix needs a string'],
    ['equals-ignore-case with a list', { value: { a: [{ 'equals-ignore-case': ['x'] }] } }, 'value.a: equals-ignore-case needs a string, e.g. { "equals-ignore-case": "alice" }.'],
    ['exists with a string', { value: { a: [{ exists: 'true' }] } }, 'value.a: exists needs true or false, e.g. { "exists": true }.'],
    ['anything-but prefix', { value: { a: [{ 'anything-but': { prefix: 'init' } }] } }, 'value.a: anything-but with prefix works on EventBridge event buses but not in Lambda event filtering; list the exact values to exclude, e.g. { "anything-but": ["error", "warn"] }.'],
    ['anything-but mixed list', { value: { a: [{ 'anything-but': ['a', 1] }] } }, 'value.a: anything-but needs a string, a number, or a non-empty list of only strings or only numbers, e.g. { "anything-but": ["error", "warn"] }; got a list.'],
    ['anything-but empty list', { value: { a: [{ 'anything-but': [] }] } }, 'value.a: anything-but needs a string, a number, or a non-empty list'],
    ['anything-but null', { value: { a: [{ 'anything-but': null }] } }, 'value.a: anything-but needs a string, a number, or a non-empty list of only strings or only numbers, e.g. { "anything-but": ["error", "warn"] }; got null.'],
    ['numeric without a number', { value: { amount: [{ numeric: ['>'] }] } }, 'value.amount: numeric needs pairs of an operator (=, <, <=, >, >=) and a number, e.g. { "numeric": [">", 0, "<=", 5] }; got [">"].'],
    ['numeric with a string number', { value: { amount: [{ numeric: ['>', '5'] }] } }, 'value.amount: numeric needs pairs'],
    ['numeric not a list', { value: { amount: [{ numeric: 5 }] } }, 'value.amount: numeric needs pairs of an operator (=, <, <=, >, >=) and a number, e.g. { "numeric": [">", 0, "<=", 5] }; got number 5.'],
    ['numeric upper bound first', { value: { amount: [{ numeric: ['<', 5, '>', 0] }] } }, 'value.amount: numeric needs pairs of an operator (=, <, <=, >, >=) and a number, e.g. { "numeric": [">", 0, "<=", 5] }; a range is a lower bound (> or >=) then an upper bound (< or <=), and = stands alone.'],
    ['numeric = in a range', { value: { amount: [{ numeric: ['=', 5, '<', 6] }] } }, 'a range is a lower bound (> or >=) then an upper bound'],
    ['numeric empty range', { value: { amount: [{ numeric: ['>', 5, '<', 5] }] } }, 'value.amount: numeric range [">",5,"<",5] is empty: the lower bound must be below the upper bound.'],
    ['numeric unknown operator', { value: { amount: [{ numeric: ['!=', 5] }] } }, 'value.amount: numeric needs pairs'],
    ['an infinite number', { value: { n: [Infinity] } }, 'value.n: Infinity is not a JSON number; match a finite number.'],
    ['$or with one branch', { value: { $or: [{ a: ['1'] }] } }, 'value.$or: $or needs a list of at least two maps, each a pattern, e.g. "$or": [{ "Location": ["New York"] }, { "Day": ["Monday"] }].'],
    ['$or as a map', { value: { $or: { a: ['1'] } } }, 'value.$or: $or needs a list of at least two maps'],
    ['$or branch with a bad leaf', { value: { $or: [{ a: ['1'] }, { b: [] }] } }, 'value.$or[1].b: the list of matchers is empty'],
    ['an operator name as a field inside $or', { value: { $or: [{ prefix: ['a'] }, { b: ['1'] }] } }, 'value.$or[0].prefix: "prefix" is an operator name, which AWS does not accept as a field name inside $or; put operators in a list, e.g. "field": [{ "prefix": ... }].'],
    ['a key filter inside top-level $or', { $or: [{ value: ['a'] }, { key: ['b'] }] }, '$or[1].key: Kafka event source mappings only support filtering on the value key'],
  ])('%s', (_, pattern, message) => {
    const problems = validateFilterPattern(pattern);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it('reports every problem, each with its own path', () => {
    expect(validateFilterPattern({ key: ['k'], value: { a: [], b: [{ numeric: ['>'] }] } })).toEqual([
      expect.stringMatching(/^key: /),
      expect.stringMatching(/^value\.a: /),
      expect.stringMatching(/^value\.b: numeric needs pairs/),
    ]);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything({ withMap: true, withSet: true, withBigInt: true, withNullPrototype: true }), (v) => {
        expect(Array.isArray(validateFilterPattern(v))).toBe(true);
        expect(Array.isArray(validateFilterPattern({ value: v }))).toBe(true);
        expect(Array.isArray(validateFilterPattern({ value: { f: [v] } }))).toBe(true);
      }),
    );
  });
});
