/**
 * Pure: whether a registered schema is small enough to compile on the poller's thread, judged
 * before any compiler sees it (README, "Bounds on hostile input"). Compile time grows with what
 * is measured here, and faster than linearly with width: Ajv nests one block of generated code
 * per sibling property, and protobufjs rebuilds a message's field index for every field it adds.
 *
 * Counted over the schema and every schema it references, each once:
 * - bytes of their texts (`maxSchemaBytes`), and how many they are (`maxReferences`);
 * - nodes (`maxSchemaNodes`): JSON values of a JSON Schema or Avro schema; statements and blocks
 *   of .proto text; messages of a FileDescriptorProto (its decoded objects);
 * - depth (`maxSchemaDepth`): nesting of JSON arrays and objects, of .proto blocks, of a
 *   descriptor's objects;
 * - width (`maxSchemaWidth`): members of one JSON object or array, statements of one .proto block,
 *   items of one descriptor list (a message's fields).
 * A text that does not parse is left to its compiler, which says what is wrong with it.
 */
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import type { RegisteredSchema } from './registry.ts';

export interface CompileBounds {
  maxSchemaBytes: number;
  maxReferences: number;
  maxSchemaNodes: number;
  maxSchemaDepth: number;
  maxSchemaWidth: number;
}

interface Shape {
  nodes: number;
  depth: number;
  width: number;
}

/** Why the schema would cost too much to compile, or undefined. */
export function tooCostlyToCompile(schema: RegisteredSchema, b: CompileBounds = INPUT_BOUNDS): string | undefined {
  const all = distinctSchemas(schema);
  if (all.length - 1 > b.maxReferences) return `it references ${all.length - 1} schemas, more than ${b.maxReferences} (maxReferences)`;
  const bytes = all.reduce((sum, s) => sum + Buffer.byteLength(s.definition), 0);
  if (bytes > b.maxSchemaBytes) return `its text${all.length > 1 ? ' with its references' : ''} is ${bytes} bytes, more than ${b.maxSchemaBytes} (maxSchemaBytes)`;
  let nodes = 0;
  for (const s of all) {
    const shape = s.format === 'PROTOBUF' ? protoShape(s.definition) : jsonShape(s.definition);
    if (!shape) continue;
    nodes += shape.nodes;
    if (shape.depth > b.maxSchemaDepth) return `it nests ${shape.depth} deep, more than ${b.maxSchemaDepth} (maxSchemaDepth)`;
    if (shape.width > b.maxSchemaWidth) return `one of its objects, lists or blocks has ${shape.width} members, more than ${b.maxSchemaWidth} (maxSchemaWidth)`;
  }
  if (nodes > b.maxSchemaNodes) return `it has ${nodes} nodes${all.length > 1 ? ' with its references' : ''}, more than ${b.maxSchemaNodes} (maxSchemaNodes)`;
  return undefined;
}

function distinctSchemas(root: RegisteredSchema): RegisteredSchema[] {
  const seen = new Set<RegisteredSchema>();
  const stack = [root];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const ref of s.references) stack.push(ref.schema);
  }
  return [...seen];
}

/** Every value of a JSON text, keys not counted; undefined when it is not JSON. */
function jsonShape(text: string): Shape | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return treeShape(value, () => true);
}

/** The shape of a parsed tree, walked without recursion; `counts` says which values are nodes. */
function treeShape(root: unknown, counts: (v: unknown) => boolean): Shape {
  const shape: Shape = { nodes: 0, depth: 0, width: 0 };
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (counts(v)) shape.nodes++;
    if (typeof v !== 'object' || v === null) continue;
    const members = Array.isArray(v) ? v : Object.values(v);
    shape.depth = Math.max(shape.depth, depth + 1);
    shape.width = Math.max(shape.width, members.length);
    for (const m of members) stack.push([m, depth + 1]);
  }
  return shape;
}

/** A .proto text's statements (`;`) and blocks (`{`), comments and strings skipped; or a base64 FileDescriptorProto's objects. */
function protoShape(definition: string): Shape | undefined {
  const text = definition.trim();
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return descriptorShape(text);
  const shape: Shape = { nodes: 0, depth: 0, width: 0 };
  const members = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = end(text.indexOf('\n', i), text);
    else if (c === '/' && text[i + 1] === '*') i = end(text.indexOf('*/', i + 2), text) + 1;
    else if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === ';' || c === '{') {
      shape.nodes++;
      const n = ++members[members.length - 1]!;
      shape.width = Math.max(shape.width, n);
      if (c === '{') members.push(0);
      shape.depth = Math.max(shape.depth, members.length - 1);
    } else if (c === '}' && members.length > 1) members.pop();
  }
  return shape;
}

const end = (at: number, text: string) => (at < 0 ? text.length : at);

/** The index of a quoted string's closing quote (a backslash escapes the next character). */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === text[open]) return i;
  }
  return text.length;
}

function descriptorShape(base64: string): Shape | undefined {
  const type = (descriptor as unknown as { FileDescriptorProto: protobuf.Type }).FileDescriptorProto;
  try {
    const decoded = type.toObject(type.decode(Buffer.from(base64, 'base64')));
    return treeShape(decoded, (v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  } catch {
    return undefined;
  }
}
