import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { describe, expect, it } from 'vitest';
import { compileCodec } from './codec.ts';
import { tooCostlyToCompile, type CompileBounds } from './compile-bounds.ts';
import { DecodeError } from './decode-error.ts';
import type { DataFormat, RegisteredSchema } from './registry.ts';

const BOUNDS: CompileBounds = { maxSchemaBytes: 2_000, maxReferences: 3, maxSchemaNodes: 20, maxSchemaDepth: 4, maxSchemaWidth: 5 };
const s = (format: DataFormat, definition: string | object, references: RegisteredSchema['references'] = []): RegisteredSchema => ({
  format,
  definition: typeof definition === 'string' ? definition : JSON.stringify(definition),
  references,
});
const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 1]));

describe('what a schema may cost to compile', () => {
  it('counts JSON values as nodes, keys not, across the schema and each reference once', () => {
    const shared = s('JSON', { a: [1, 2, 3] }); // 5 nodes: the object, the list, its 3 items
    const root = s('JSON', { x: 1 }, [{ name: 'a', schema: shared }, { name: 'b', schema: s('JSON', { y: 1 }, [{ name: 'a', schema: shared }]) }]);
    expect(tooCostlyToCompile(root, BOUNDS)).toBeUndefined(); // 2 + 5 + 2 = 9 nodes
    expect(tooCostlyToCompile(s('JSON', { a: props(4), b: props(4), c: props(4), d: props(4), e: props(0) }), BOUNDS)).toBe('it has 22 nodes, more than 20 (maxSchemaNodes)');
  });

  it('refuses past each bound, naming it', () => {
    expect(tooCostlyToCompile(s('AVRO', props(6)), BOUNDS)).toBe('one of its objects, lists or blocks has 6 members, more than 5 (maxSchemaWidth)');
    expect(tooCostlyToCompile(s('JSON', { a: { b: { c: { d: { e: 1 } } } } }), BOUNDS)).toBe('it nests 5 deep, more than 4 (maxSchemaDepth)');
    expect(tooCostlyToCompile(s('JSON', JSON.stringify('x'.repeat(2_000))), BOUNDS)).toBe('its text is 2002 bytes, more than 2000 (maxSchemaBytes)');
    const refs = Array.from({ length: 4 }, (_, i) => ({ name: `r${i}`, schema: s('AVRO', '"string"') }));
    expect(tooCostlyToCompile(s('AVRO', '"string"', refs), BOUNDS)).toBe('it references 4 schemas, more than 3 (maxReferences)');
  });

  it('counts .proto statements and blocks, comments and strings aside', () => {
    const proto = (fields: number) => `syntax = "proto3"; // { { {\n/* ; ; ; } */ message M { option (x) = "};{"; ${Array.from({ length: fields }, (_, i) => `string f${i} = ${i + 1};`).join(' ')} }`;
    expect(tooCostlyToCompile(s('PROTOBUF', proto(4)), BOUNDS)).toBeUndefined();
    expect(tooCostlyToCompile(s('PROTOBUF', proto(5)), BOUNDS)).toBe('one of its objects, lists or blocks has 6 members, more than 5 (maxSchemaWidth)');
    expect(tooCostlyToCompile(s('PROTOBUF', 'message A { message B { message C { message D { message E { } } } } }'), BOUNDS)).toBe('it nests 5 deep, more than 4 (maxSchemaDepth)');
  });

  it("counts a FileDescriptorProto's decoded objects (its messages and fields)", () => {
    const type = (descriptor as unknown as { FileDescriptorProto: protobuf.Type }).FileDescriptorProto;
    const file = (fields: number) => ({ name: 'm.proto', messageType: [{ name: 'M', field: Array.from({ length: fields }, (_, i) => ({ name: `f${i}`, number: i + 1, type: 9, label: 1 })) }] });
    const base64 = (fields: number) => Buffer.from(type.encode(type.fromObject(file(fields))).finish()).toString('base64');
    const bounds = { ...BOUNDS, maxSchemaDepth: 10 }; // a descriptor nests twice as deep as its text: each list is a level
    expect(tooCostlyToCompile(s('PROTOBUF', base64(5)), bounds)).toBeUndefined();
    expect(tooCostlyToCompile(s('PROTOBUF', base64(6)), bounds)).toBe('one of its objects, lists or blocks has 6 members, more than 5 (maxSchemaWidth)');
  });

  it('leaves a text that does not parse to its compiler', () => {
    expect(tooCostlyToCompile(s('JSON', '{"a":'), BOUNDS)).toBeUndefined();
    expect(() => compileCodec(s('JSON', '{"a":'), 'confluent')).toThrow(/does not compile: .*JSON/);
  });

  it('makes a schema past the default bounds one that does not compile, before any compiler runs', () => {
    const wide = s('AVRO', { type: 'record', name: 'Wide', fields: Array.from({ length: 501 }, (_, i) => ({ name: `f${i}`, type: 'string' })) });
    expect(() => compileCodec(wide, 'confluent')).toThrow(DecodeError);
    expect(() => compileCodec(wide, 'confluent')).toThrow('the registered AVRO schema is not compiled: one of its objects, lists or blocks has 501 members, more than 500 (maxSchemaWidth)');
    const deep = s('PROTOBUF', `syntax = "proto3"; ${'message A { '.repeat(65)}${'} '.repeat(65)}`);
    expect(() => compileCodec(deep, 'confluent')).toThrow('it nests 65 deep, more than 64 (maxSchemaDepth)');
  });
});
