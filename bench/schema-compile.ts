/**
 * How long the poller's thread spends compiling a schema just under each compile bound
 * (INPUT_BOUNDS: maxSchemaNodes, maxSchemaWidth, maxSchemaDepth, maxSchemaBytes, maxReferences),
 * in the shapes that cost each compiler most. Run: node --import tsx bench/schema-compile.ts
 * Each schema is checked to pass tooCostlyToCompile, and to be refused with one node more.
 */
import { INPUT_BOUNDS as B } from '../framework/config/input-bounds.ts';
import { compileCodec } from '../framework/schema/codec.ts';
import { tooCostlyToCompile } from '../framework/schema/compile-bounds.ts';
import type { DataFormat, RegisteredSchema } from '../framework/schema/registry.ts';

const schema = (format: DataFormat, definition: string, references: RegisteredSchema['references'] = []): RegisteredSchema => ({ format, definition, references });
/** A 1,000-character pattern RE2 compiles to a large program: an alternation of distinct words. */
function longPattern(i: number): string {
  const words: string[] = [];
  while (words.join('|').length < 980) words.push(`w${i}x${words.length}`);
  return `^(?:${words.join('|')})+$`;
}

/** `members` properties of `perProperty` nodes each, in objects of at most maxSchemaWidth. */
function jsonSchema(members: number, property: (i: number) => object): string {
  const groups: Record<string, unknown> = {};
  for (let g = 0; g * B.maxSchemaWidth < members; g++) {
    const props: Record<string, unknown> = {};
    for (let i = g * B.maxSchemaWidth; i < Math.min(members, (g + 1) * B.maxSchemaWidth); i++) props[`p${i}`] = property(i);
    groups[`g${g}`] = { type: 'object', properties: props };
  }
  return JSON.stringify({ type: 'object', properties: groups });
}
const avro = (fields: number) => JSON.stringify({
  type: 'record', name: 'R',
  fields: Array.from({ length: Math.ceil(fields / B.maxSchemaWidth) }, (_, g) => ({ name: `g${g}`, type: { type: 'record', name: `G${g}`, fields: Array.from({ length: Math.min(B.maxSchemaWidth, fields - g * B.maxSchemaWidth) }, (_, i) => ({ name: `f${i}`, type: 'string' })) } })),
});
const proto = (fields: number) => `syntax = "proto3";\n${Array.from({ length: Math.ceil(fields / (B.maxSchemaWidth - 1)) }, (_, g) => `message M${g} {\n${Array.from({ length: Math.min(B.maxSchemaWidth - 1, fields - g * (B.maxSchemaWidth - 1)) }, (_, i) => `  string f${i} = ${i + 1};`).join('\n')}\n}`).join('\n')}\n`;
const nested = (levels: number): object => (levels === 0 ? { type: 'string' } : { type: 'object', properties: { a: nested(levels - 1) } });

/** The largest n for which make(n) passes the bounds. */
function largest(make: (n: number) => RegisteredSchema): { n: number; s: RegisteredSchema } {
  let n = 1;
  while (!tooCostlyToCompile(make(n * 2))) n *= 2;
  for (let step = n / 2; step >= 1; step /= 2) if (!tooCostlyToCompile(make(n + step))) n += step;
  return { n, s: make(n) };
}

const cases: Array<[string, (n: number) => RegisteredSchema]> = [
  ['JSON Schema, maxSchemaNodes (properties of 2 nodes, 500 to an object)', (n) => schema('JSON', jsonSchema(n, () => ({ type: 'string' })))],
  ['JSON Schema, maxSchemaNodes, a pattern on each property', (n) => schema('JSON', jsonSchema(n, (i) => ({ type: 'string', pattern: `^x${i}(a|a)*[a-z]+$` })))],
  ['JSON Schema, maxSchemaBytes (1,000-character patterns)', (n) => schema('JSON', jsonSchema(n, (i) => ({ pattern: longPattern(i) })))],
  ['JSON Schema, maxSchemaDepth', (n) => schema('JSON', JSON.stringify(nested(n)))],
  ['JSON Schema, maxReferences (each referenced schema a property)', (n) => schema('JSON', JSON.stringify({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { $ref: `r${i}.json` }])) }), Array.from({ length: n }, (_, i) => ({ name: `r${i}.json`, schema: schema('JSON', '{"type":"object","properties":{"a":{"type":"string"}}}') })))],
  ['Avro, maxSchemaNodes (fields of 3 nodes, 500 to a record)', (n) => schema('AVRO', avro(n))],
  ['Protobuf, maxSchemaNodes (fields, 499 to a message)', (n) => schema('PROTOBUF', proto(n))],
];

compileCodec(schema('JSON', '{"type":"string","pattern":"^a+$"}'), 'confluent'); // warm up the compilers
compileCodec(schema('PROTOBUF', 'syntax = "proto3"; message A { string a = 1; }'), 'confluent');
for (const [label, make] of cases) {
  const { n, s } = largest(make);
  const bytes = [s, ...s.references.map((r) => r.schema)].reduce((sum, x) => sum + x.definition.length, 0);
  const t = performance.now();
  compileCodec(s, 'confluent');
  console.log(`${label}: n=${n}, ${bytes} bytes, refused at n=${n + 1} (${tooCostlyToCompile(make(n + 1))}); compiled in ${(performance.now() - t).toFixed(0)} ms`);
}
