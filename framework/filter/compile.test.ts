import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFilters } from './compile.ts';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { isConfigError } from '../errors.ts';
import type { KafkaRecord } from '../event/record.ts';

const record = (value: string | Buffer | null): KafkaRecord => ({
  topic: 'mytopic', partition: 0, offset: 15, timestamp: 1545084650987, timestampType: 'CREATE_TIME', key: null,
  value: typeof value === 'string' ? Buffer.from(value) : value, headers: [],
});
const json = (v: unknown) => record(JSON.stringify(v));
type Pattern = Record<string, unknown>;
const passes = (patterns: Pattern[], r: KafkaRecord) => compileFilters(patterns)(r);

// AWS, "Filtering events from Amazon MSK and self-managed Apache Kafka event sources".
const KAFKA_DOC = 'Filtering events from Amazon MSK and self-managed Apache Kafka event sources';
const device = (id: string) => ({ device_ID: id, session: { start_time: 'yyyy-mm-ddThh:mm:ss', duration: 162 } });
const deviceAB: Pattern = { value: { device_ID: [{ prefix: 'AB' }] } };
const notError: Pattern = { value: [{ 'anything-but': ['error'] }] };
const docRecord = record(Buffer.from('SGVsbG8sIHRoaXMgaXMgYSB0ZXN0Lg==', 'base64')); // "Hello, this is a test."

describe(KAFKA_DOC, () => {
  it.each([
    ['device_ID begins with AB: AB1234 passes', deviceAB, json(device('AB1234')), true],
    ['device_ID begins with AB: CD1234 is dropped', deviceAB, json(device('CD1234')), false],
    ['plain string, ignore "error": "error" is dropped', notError, record('error'), false],
    ['plain string, ignore "error": the example record passes', notError, docRecord, true],
  ])('%s', (_, pattern, r, expected) => expect(passes([pattern], r)).toBe(expected));

  // The table under "Kafka messages must be UTF-8 encoded strings ...".
  it.each([
    ['plain string message, plain string pattern: filtered', { value: ['error'] }, record('ok'), false],
    ['plain string message, plain string pattern: filtered (match)', { value: ['ok'] }, record('ok'), true],
    ['plain string message, valid JSON pattern: metadata filters only', deviceAB, record('CD1234'), true],
    ['valid JSON message, plain string pattern: metadata filters only', { value: ['error'] }, json(device('CD1234')), true],
    ['valid JSON message, valid JSON pattern: filtered', deviceAB, json(device('CD1234')), false],
    ['non-UTF-8 message, JSON pattern: metadata filters only', deviceAB, record(Buffer.from([0xff, 0xfe, 0x7b])), true],
    ['non-UTF-8 message, plain string pattern: metadata filters only', { value: ['x'] }, record(Buffer.from([0xc3])), true],
  ])('%s', (_, pattern, r, expected) => expect(passes([pattern], r)).toBe(expected));

  it('no filter pattern: every record is invoked', () => {
    expect(compileFilters([])(record(Buffer.from([0xff])))).toBe(true);
    expect(compileFilters([])(record(null))).toBe(true);
  });
});

// AWS, "Control which events Lambda sends to your function": the operator table, each row's rule
// put under `value` (the Kafka filtering key), with an event that matches and one that does not.
describe('Control which events Lambda sends to your function: comparison operators', () => {
  it.each<[string, Pattern, unknown, unknown]>([
    ['Null', { UserID: [null] }, { UserID: null }, { UserID: 'null' }],
    ['Empty', { LastName: [''] }, { LastName: '' }, { LastName: null }],
    ['Equals', { Name: ['Alice'] }, { Name: 'Alice' }, { Name: 'alice' }],
    ['Equals (ignore case)', { Name: [{ 'equals-ignore-case': 'alice' }] }, { Name: 'ALICE' }, { Name: 'Alicia' }],
    ['And', { Location: ['New York'], Day: ['Monday'] }, { Location: 'New York', Day: 'Monday' }, { Location: 'New York', Day: 'Tuesday' }],
    ['Or', { PaymentType: ['Credit', 'Debit'] }, { PaymentType: 'Debit' }, { PaymentType: 'Cash' }],
    ['Or (multiple fields)', { $or: [{ Location: ['New York'] }, { Day: ['Monday'] }] }, { Location: 'Boston', Day: 'Monday' }, { Location: 'Boston', Day: 'Friday' }],
    ['Not', { Weather: [{ 'anything-but': ['Raining'] }] }, { Weather: 'Sunny' }, { Weather: 'Raining' }],
    ['Numeric (equals)', { Price: [{ numeric: ['=', 100] }] }, { Price: 100 }, { Price: 101 }],
    ['Numeric (range)', { Price: [{ numeric: ['>', 10, '<=', 20] }] }, { Price: 20 }, { Price: 10 }],
    ['Exists', { ProductName: [{ exists: true }] }, { ProductName: 'x' }, { Other: 'x' }],
    ['Does not exist', { ProductName: [{ exists: false }] }, { Other: 'x' }, { ProductName: 'x' }],
    ['Begins with', { Region: [{ prefix: 'us-' }] }, { Region: 'us-east-1' }, { Region: 'eu-west-1' }],
    ['Ends with', { FileName: [{ suffix: '.png' }] }, { FileName: 'a.png' }, { FileName: 'a.png.txt' }],
  ])('%s', (_, rule, yes, no) => {
    expect(passes([{ value: rule }], json(yes))).toBe(true);
    expect(passes([{ value: rule }], json(no))).toBe(false);
  });

  it('strings match character by character, without case folding (note under the table)', () => {
    expect(passes([{ value: { Name: ['Alice'] } }], json({ Name: 'Alice ' }))).toBe(false);
    expect(passes([{ value: { Name: ['Alice'] } }], json({ Name: 'ALICE' }))).toBe(false);
  });

  it('numbers match on their string representation: 300, 300.0 and 3.0e2 are not equal (note under the table)', () => {
    const p = [{ value: { n: [300] } }];
    expect(passes(p, record('{"n": 300}'))).toBe(true);
    expect(passes(p, record('{"n": 300.0}'))).toBe(false);
    expect(passes(p, record('{"n": 3.0e2}'))).toBe(false);
    expect(passes(p, record('{"n": "300"}'))).toBe(false);
  });

  it('exists only works on leaf nodes: person.address is an intermediate node', () => {
    const event = { person: { name: 'John Doe', age: 30, address: { street: '123 Main St', city: 'Anytown', country: 'USA' } } };
    expect(passes([{ value: { person: { address: [{ exists: true }] } } }], json(event))).toBe(false);
  });

  it('multi-level filtering: the DynamoDB Keys.Number.N example', () => {
    const p = [{ value: { Keys: { Number: { N: ['4567'] } } } }];
    expect(passes(p, json({ Keys: { ID: { S: 'ABCD' }, Number: { N: '1234' } } }))).toBe(false);
    expect(passes(p, json({ Keys: { ID: { S: 'ABCD' }, Number: { N: '4567' } } }))).toBe(true);
  });

  it('console example { "Metadata": [1, 2] }: Metadata equal to 1 or 2', () => {
    const p = [{ value: { Metadata: [1, 2] } }];
    expect([1, 2, 3].map((m) => passes(p, json({ Metadata: m })))).toEqual([true, true, false]);
  });

  it('filters are ORed: a record passes when it satisfies one or more', () => {
    const p = [{ value: { a: ['1'] } }, { value: { b: ['2'] } }];
    expect(passes(p, json({ a: '1' }))).toBe(true);
    expect(passes(p, json({ b: '2' }))).toBe(true);
    expect(passes(p, json({ a: '2', b: '1' }))).toBe(false);
  });

  it('the event must contain all the field names of a filter', () => {
    expect(passes([{ value: { a: ['1'], b: ['2'] } }], json({ a: '1' }))).toBe(false);
  });
});

// EventBridge event-pattern pages, which Lambda names as the source of its syntax.
describe('EventBridge event patterns (the syntax Lambda filtering shares)', () => {
  it('arrays: an event array matches when it intersects the pattern list (resources example)', () => {
    const p = [{ value: { resources: ['arn:aws:ec2:us-east-1:123456789012:instance/i-b188560f', 'arn:aws:ec2:us-east-1:111122223333:instance/i-b188560f'] } }];
    expect(passes(p, json({ resources: ['arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:x', 'arn:aws:ec2:us-east-1:123456789012:instance/i-b188560f'] }))).toBe(true);
    expect(passes(p, json({ resources: ['arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:x'] }))).toBe(false);
  });

  it('null values and empty strings are not interchangeable', () => {
    const event = { eventVersion: '', responseElements: null };
    expect(passes([{ value: { eventVersion: [''] } }], json(event))).toBe(true);
    expect(passes([{ value: { responseElements: [null] } }], json(event))).toBe(true);
    expect(passes([{ value: { eventVersion: [null] } }], json(event))).toBe(false);
    expect(passes([{ value: { responseElements: [''] } }], json(event))).toBe(false);
  });

  it('numeric matching example: c-count, d-count and x-limit = 3.018e2', () => {
    const p = [{ value: { detail: { 'c-count': [{ numeric: ['>', 0, '<=', 5] }], 'd-count': [{ numeric: ['<', 10] }], 'x-limit': [{ numeric: ['=', 3.018e2] }] } } }];
    expect(passes(p, json({ detail: { 'c-count': 5, 'd-count': 3, 'x-limit': 301.8 } }))).toBe(true);
    expect(passes(p, json({ detail: { 'c-count': 0, 'd-count': 3, 'x-limit': 301.8 } }))).toBe(false);
    expect(passes(p, json({ detail: { 'c-count': 5, 'd-count': 3, 'x-limit': '301.8' } }))).toBe(false);
  });

  it('exists false also matches when the field is an intermediate node (c-count example)', () => {
    const p = [{ value: { detail: { 'c-count': [{ exists: false }] } } }];
    expect(passes(p, json({ detail: { state: ['initializing', 'running'] } }))).toBe(true);
    expect(passes(p, json({ detail: { state: ['initializing', 'running'], 'c-count': { c1: 100 } } }))).toBe(true);
    expect(passes(p, json({ detail: { 'c-count': 1 } }))).toBe(false);
  });

  it('complex example: anything-but and numeric combined', () => {
    const p = [{ value: { detail: { state: [{ 'anything-but': 'initializing' }], 'c-count': [{ numeric: ['>', 0, '<=', 5] }], 'x-limit': [{ 'anything-but': [100, 200, 300] }] } } }];
    expect(passes(p, json({ detail: { state: 'running', 'c-count': 3, 'x-limit': 301.8 } }))).toBe(true);
    expect(passes(p, json({ detail: { state: 'running', 'c-count': 3, 'x-limit': 200 } }))).toBe(false);
    expect(passes(p, json({ detail: { state: 'initializing', 'c-count': 3, 'x-limit': 301.8 } }))).toBe(false);
  });

  it('fields inside different elements of one array are not combined', () => {
    const event = { employees: [{ firstName: 'John', lastName: 'Doe' }, { firstName: 'Anna', lastName: 'Smith' }, { firstName: 'Peter', lastName: 'Jones' }] };
    expect(passes([{ value: { employees: { firstName: ['Anna'] } } }], json(event))).toBe(true);
    expect(passes([{ value: { employees: { firstName: ['Anna'], lastName: ['Smith'] } } }], json(event))).toBe(true);
    expect(passes([{ value: { employees: { firstName: ['Anna'], lastName: ['Jones'] } } }], json(event))).toBe(false);
  });
});

describe('compileFilters', () => {
  it('top-level $or combines patterns on value', () => {
    const p = [{ $or: [{ value: { kind: ['a'] } }, { value: { kind: ['b'] } }] }];
    expect(['a', 'b', 'c'].map((kind) => passes(p, json({ kind })))).toEqual([true, true, false]);
  });

  it('a null value (tombstone) is a missing value: only exists false matches it (not documented by AWS)', () => {
    expect(passes([{ value: [{ exists: false }] }], record(null))).toBe(true);
    expect(passes([{ value: [{ 'anything-but': ['error'] }] }], record(null))).toBe(false);
    expect(passes([{ value: { a: ['x'] } }], record(null))).toBe(false);
  });

  it('a bare JSON scalar is a plain string message; an empty value is the empty string', () => {
    expect(passes([{ value: ['42'] }], record('42'))).toBe(true);
    expect(passes([{ value: [{ prefix: '"q' }] }], record('"quoted"'))).toBe(true);
    expect(passes([{ value: [''] }], record(''))).toBe(true);
  });

  it('text that opens like JSON but does not parse is a plain string', () => {
    expect(passes([{ value: [{ prefix: '{oops' }] }], record('{oops'))).toBe(true);
  });

  it('refuses an invalid pattern with a ConfigError naming the pattern and the path', () => {
    let error: unknown;
    try {
      compileFilters([{ value: { a: ['x'] } }, { value: { amount: [{ numeric: ['>'] }] } }]);
    } catch (e) {
      error = e;
    }
    expect(isConfigError(error)).toBe(true);
    expect((error as Error).message).toContain('filterPatterns[1]: value.amount: numeric needs pairs');
  });

  it('a record passes a list of patterns exactly when it passes one of them', () => {
    const patterns: Pattern[] = [{ value: { a: ['x'] } }, { value: { b: [{ prefix: 'y' }] } }, { value: ['x'] }];
    const values = fc.oneof(
      fc.constantFrom('x', 'y1', 'z', '', 'error'),
      fc.record({ a: fc.constantFrom('x', 'y'), b: fc.constantFrom('y2', 'z') }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(fc.subarray(patterns, { minLength: 1 }), values, (chosen, text) => {
        const r = record(text);
        expect(passes(chosen, r)).toBe(chosen.some((p) => passes([p], r)));
      }),
    );
  });

  it('throws on a record whose JSON nests past maxFilterJsonDepth (its FilterFailed), where the matchers overflowed the stack', () => {
    const filter = compileFilters([{ value: { a: [{ exists: true }] } }]);
    const deep = (n: number) => ({ ...record('{"a":' + '['.repeat(n) + '1' + ']'.repeat(n) + '}') });
    expect(filter(deep(100))).toBe(true);
    expect(() => filter(deep(20_000))).toThrow(/maxFilterJsonDepth/);
  });

  it('throws on a record whose value is past maxFilterValueBytes (its FilterFailed) before reading it, where it was parsed whole', () => {
    const filter = compileFilters([{ value: { a: [{ prefix: 'x' }] } }]);
    const sized = (bytes: number, head = '{"a":"') => record(head + 'x'.repeat(bytes - head.length - 2) + '"}');
    expect(filter(sized(INPUT_BOUNDS.maxFilterValueBytes))).toBe(true);
    expect(() => filter(sized(INPUT_BOUNDS.maxFilterValueBytes + 1))).toThrow(/6291457 bytes, more than 6291456 \(the bound maxFilterValueBytes\)/);
    // Refused unread: JSON nested past its depth bound, or a plain string, is refused for its size alone.
    expect(() => filter(sized(INPUT_BOUNDS.maxFilterValueBytes + 1, '['.repeat(1_000) + '"'))).toThrow(/maxFilterValueBytes/);
    expect(() => compileFilters([{ value: [{ prefix: 'x' }] }])(record('x'.repeat(INPUT_BOUNDS.maxFilterValueBytes + 1)))).toThrow(/maxFilterValueBytes/);
    expect(filter(record(null))).toBe(false);
  });
});
