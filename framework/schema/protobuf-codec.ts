/**
 * Protobuf with protobufjs (.proto text, or a FileDescriptorProto, read at run time: no generated
 * code; the library Powertools' Kafka deserializer uses). Referenced files are added to one root
 * before the schema; Google's well-known types come from protobufjs's own copies, each file once
 * however many files import it, and also for a reference named as one of those files (a schema
 * registered with skip.known.types=false carries Google's file as a reference of its own).
 *
 * Which message of the file a record holds is written before it:
 * - Confluent: message indexes, the path of the type among the file's messages in declaration
 *   order (top level, then nested), wire.ts reads them. Whether the entry type of a map field
 *   takes a place follows the form the schema was registered in:
 *   - a FileDescriptorProto (as Confluent's Python serializer registers it): the path walks its
 *     message_type / nested_type as stored, entry types included, since the Python serializer's
 *     `_create_index_array` counts the descriptor's `nested_types`; an index naming an entry is
 *     refused;
 *   - .proto text: declared messages only, as the Java serializer counts them.
 *     `ProtobufSchema.toMessageIndexes` (and `toMessageName` on the reading side) walks the
 *     wire-schema element model, `ProtoFileElement.getTypes()` then
 *     `MessageElement.getNestedTypes()`, counting each MessageElement. Parsed from text, a
 *     `map<K, V>` field is a FieldElement of that type with no nested element: the entry type
 *     is made only when the descriptor is built (`toDynamicMessage`, "newly created map entry
 *     messages are at the end"). A `message XEntry { option map_entry = true; ... }` written out
 *     in the text is an element, and is counted (Java skips it only with normalize.schemas);
 * - Glue: one unsigned varint, the type's position among all the file's messages, nested ones
 *   included, sorted by full name (aws-glue-schema-registry's MessageIndexFinder). Glue's
 *   descriptors also hold the entry type of each map field (`Cart.AttributesEntry`, named as its
 *   FileDescriptorUtils names it), so those take a position too.
 *
 * JSON rendering: proto3's JSON mapping as protobufjs writes it: lowerCamelCase field names,
 * 64-bit integers as strings, enums by name, bytes as base64, fields at their default left out.
 */
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { DecodeError, decoding, EncodeError } from './decode-error.ts';
import type { Codec } from './codec.ts';
import type { RegisteredSchema } from './registry.ts';
import { readMessageIndexes, writeMessageIndexes, type RegistryKind } from './wire.ts';

const PARSE = { keepCase: false, alternateCommentMode: false } as const;
const TO_JSON = { longs: String, enums: String, bytes: String, json: true } as const;

export function protobufCodec(schema: RegisteredSchema, registry: RegistryKind): Codec {
  const root = new protobuf.Root();
  // By file name, each once: the schema (''), its references, and the well-known files any of them import.
  const addedFiles = new Set<string>();
  const parseInto = (s: RegisteredSchema, name: string) => {
    if (addedFiles.has(name)) return;
    addedFiles.add(name);
    if (addWellKnown(root, name)) return; // registered with skip.known.types=false: a reference to Google's own file
    for (const ref of s.references) parseInto(ref.schema, ref.name);
    const file = loadFile(s.definition, false);
    root.addJSON(file.json);
    for (const imported of file.imports) {
      if (addedFiles.has(imported)) continue;
      if (addWellKnown(root, imported)) addedFiles.add(imported);
    }
  };
  parseInto(schema, '');
  root.resolveAll();
  // The file's own messages, in declaration order, from a root holding nothing else (field names as written).
  const own = loadFile(schema.definition, true);
  const ownRoot = new protobuf.Root().addJSON(own.json); // not resolved: it only lists the file's messages
  const topLevel = messagesOf((own.pkg ? ownRoot.lookup(own.pkg) : ownRoot) as protobuf.Namespace | null);
  const byPath = (indexes: number[]): protobuf.Type => root.lookupType(own.descriptor ? descriptorPath(own.descriptor, indexes) : textPath(topLevel, indexes));
  const sorted = glueIndexed(topLevel).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    decode: (payload) =>
      decoding('Protobuf', () => {
        if (registry === 'confluent') {
          const { indexes, message } = readMessageIndexes(payload);
          return byPath(indexes).decode(message);
        }
        const reader = protobuf.Reader.create(payload);
        const index = reader.uint32();
        const indexed = sorted[index];
        if (indexed === undefined) throw new DecodeError(`message index ${index} names no message of the schema (it has ${sorted.length})`);
        if (indexed.mapEntry) throw new DecodeError(`message index ${index} names ${indexed.name}, the entry type of a map field, not a message of the schema`);
        return root.lookupType(indexed.name).decode(payload.subarray(reader.pos));
      }),
    toJson: (value) => {
      const message = value as protobuf.Message;
      return JSON.stringify(message.$type.toObject(message, TO_JSON));
    },
    encode: (value, _text, message) => {
      if (registry !== 'confluent') throw new EncodeError('writing Protobuf for a Glue registry is not supported; use a Confluent-compatible registry');
      const indexes = message === undefined ? [0] : indexesOf(topLevel, message, own.pkg);
      const type = byPath(indexes);
      // fromObject coerces ("abc" becomes 0) and drops what it does not know: checked first, as Confluent's ParseDict does.
      const body = type.encode(type.fromObject(strictMessage(type, value, ''))).finish();
      return Buffer.concat([writeMessageIndexes(indexes), Buffer.from(body)]);
    },
  };
}

/**
 * A registered file as protobufjs JSON. Registries hold .proto text, or (as Confluent's own
 * serializers register it, and Apicurio keeps it) a base64 FileDescriptorProto; field names are
 * camelCased, as proto3's JSON mapping names them, unless `keepCase`.
 */
function loadFile(definition: string, keepCase: boolean): LoadedFile {
  const text = definition.trim();
  if (!BASE64.test(text)) {
    const parsed = protobuf.parse(text, new protobuf.Root(), { ...PARSE, keepCase });
    return { json: parsed.root.toJSON().nested ?? {}, imports: parsed.imports ?? [], pkg: parsed.package };
  }
  const file = (descriptor as unknown as { FileDescriptorProto: protobuf.Type }).FileDescriptorProto.decode(Buffer.from(text, 'base64')) as unknown as FileProto;
  const built = (protobuf.Root as unknown as { fromDescriptor(set: unknown): protobuf.Root }).fromDescriptor({ file: [file] });
  const json = built.toJSON().nested ?? {};
  return { json: keepCase ? json : camelCaseFields(json), imports: file.dependency ?? [], pkg: file.package || undefined, descriptor: file };
}

interface LoadedFile {
  json: Record<string, protobuf.AnyNestedObject>;
  imports: string[];
  pkg: string | undefined;
  /** The FileDescriptorProto as registered, when it was (protobufjs's root has no map entry types). */
  descriptor?: FileProto;
}

/** What the index path needs of a decoded FileDescriptorProto / DescriptorProto. */
interface FileProto {
  package?: string;
  dependency?: string[];
  messageType?: MessageProto[];
}
interface MessageProto {
  name?: string;
  nestedType?: MessageProto[];
  options?: { mapEntry?: boolean } | null;
}

/** The full name (no leading dot) of the message at Confluent indexes, among the descriptor's message_type / nested_type as stored. */
function descriptorPath(file: FileProto, indexes: number[]): string {
  const names = file.package ? [file.package] : [];
  let candidates = file.messageType ?? [];
  for (const i of indexes) {
    const message = candidates[i];
    if (!message) throw new DecodeError(`message index ${indexes.join('.')} names no message of the schema`);
    names.push(message.name ?? '');
    if (message.options?.mapEntry) throw new DecodeError(`message index ${indexes.join('.')} names ${names.join('.')}, the entry type of a map field, not a message of the schema`);
    candidates = message.nestedType ?? [];
  }
  return names.join('.');
}

/** The full name of the message at Confluent indexes, among the messages the .proto text declares. */
function textPath(topLevel: protobuf.Type[], indexes: number[]): string {
  let candidates = topLevel;
  let type: protobuf.Type | undefined;
  for (const i of indexes) {
    type = candidates[i];
    if (!type) throw new DecodeError(`message index ${indexes.join('.')} names no message of the schema`);
    candidates = messagesOf(type);
  }
  return type!.fullName;
}

/**
 * The Confluent indexes of a message of the .proto's own, by its name: the full name
 * (`shop.Customer.Note`), else the name from the file's top level (`Customer.Note`), else a unique
 * last part (`Note`); a name that could be several messages is refused, naming them.
 */
function indexesOf(topLevel: protobuf.Type[], name: string, pkg: string | undefined): number[] {
  const all: Array<{ full: string; indexes: number[] }> = [];
  const walk = (types: protobuf.Type[], path: number[]) =>
    types.forEach((t, i) => {
      all.push({ full: t.fullName.slice(1), indexes: [...path, i] });
      walk(messagesOf(t), [...path, i]);
    });
  walk(topLevel, []);
  const want = name.replace(/^\./, '');
  const exact = all.find((m) => m.full === want) ?? all.find((m) => pkg !== undefined && m.full === `${pkg}.${want}`);
  if (exact) return exact.indexes;
  const suffix = all.filter((m) => m.full.endsWith(`.${want}`));
  if (suffix.length === 1) return suffix[0]!.indexes;
  if (suffix.length > 1) throw new EncodeError(`--message ${name} could be ${suffix.map((m) => m.full).join(' or ')}: give the full name`);
  throw new EncodeError(`the schema has no message ${name}; its messages: ${all.map((m) => m.full).join(', ')}`);
}

const INTEGER_TEXT = /^-?\d+$/;
const INT32 = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/**
 * A JSON value checked against a message type as proto3's JSON mapping reads it (a field by its
 * JSON or its .proto name, numbers as numbers or digit strings, 64-bit ones also as BigInt from
 * the exact parse, enums by name or number, bytes as base64), into what protobufjs's fromObject
 * takes: what does not fit is an EncodeError naming the field.
 */
function strictMessage(type: protobuf.Type, value: unknown, at: string): Record<string, unknown> {
  const name = type.fullName.slice(1);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EncodeError(`${at || 'the value'}: not a JSON object, as ${name} is`);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = type.fields[key] ?? type.fields[protobuf.util.camelCase(key)];
    if (!field) throw new EncodeError(`${at}${key}: ${name} has no such field (its fields: ${Object.keys(type.fields).join(', ') || 'none'})`);
    if (v === null) continue; // proto3 JSON: null is the field's default
    field.resolve();
    const here = `${at}${key}`;
    if (field instanceof protobuf.MapField) {
      if (typeof v !== 'object' || Array.isArray(v)) throw new EncodeError(`${here}: a map field takes a JSON object`);
      out[field.name] = Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, single(field, x, `${here}.${k}`)]));
    } else if (field.repeated) {
      if (!Array.isArray(v)) throw new EncodeError(`${here}: a repeated field takes a JSON list`);
      out[field.name] = v.map((x, i) => single(field, x, `${here}[${i}]`));
    } else out[field.name] = single(field, v, here);
  }
  return out;
}

function single(field: protobuf.Field, v: unknown, at: string): unknown {
  const wrong = (what: string) => new EncodeError(`${at}: ${JSON.stringify(typeof v === 'bigint' ? v.toString() : v)?.slice(0, 40)} is not ${what}`);
  if (field.resolvedType instanceof protobuf.Type) return strictMessage(field.resolvedType, v, `${at}.`);
  if (field.resolvedType instanceof protobuf.Enum) {
    const values = field.resolvedType.values;
    if ((typeof v === 'string' && Object.hasOwn(values, v)) || Number.isInteger(v)) return v;
    throw wrong(`one of ${Object.keys(values).join(', ')}`);
  }
  if (INT32.has(field.type)) {
    if (Number.isInteger(v) || (typeof v === 'string' && INTEGER_TEXT.test(v))) return Number(v);
    throw wrong(`a whole number (${field.type})`);
  }
  if (INT64.has(field.type)) {
    if (Number.isSafeInteger(v) || typeof v === 'bigint' || (typeof v === 'string' && INTEGER_TEXT.test(v))) return String(v);
    throw wrong(`a whole number (${field.type})`);
  }
  switch (field.type) {
    case 'double':
    case 'float':
      if (typeof v === 'number' || v === 'NaN' || v === 'Infinity' || v === '-Infinity') return v;
      throw wrong(`a number (${field.type})`);
    case 'bool':
      if (typeof v === 'boolean') return v;
      throw wrong('true or false');
    case 'string':
      if (typeof v === 'string') return v;
      throw wrong('a string');
    case 'bytes':
      if (typeof v === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) return v;
      throw wrong('base64 bytes');
  }
  return v;
}

/** A whole definition in base64 (a serialized descriptor); .proto text always has spaces, `;` or `{`. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function camelCaseFields(nested: Record<string, protobuf.AnyNestedObject>): Record<string, protobuf.AnyNestedObject> {
  const out: Record<string, protobuf.AnyNestedObject> = {};
  for (const [name, node] of Object.entries(nested)) {
    const copy = { ...node } as Record<string, unknown>;
    if (copy['fields']) copy['fields'] = Object.fromEntries(Object.entries(copy['fields'] as object).map(([f, v]) => [protobuf.util.camelCase(f), v]));
    if (copy['oneofs']) {
      copy['oneofs'] = Object.fromEntries(Object.entries(copy['oneofs'] as Record<string, { oneof: string[] }>).map(([o, v]) => [o, { ...v, oneof: v.oneof.map((f) => protobuf.util.camelCase(f)) }]));
    }
    if (copy['nested']) copy['nested'] = camelCaseFields(copy['nested'] as Record<string, protobuf.AnyNestedObject>);
    out[name] = copy as protobuf.AnyNestedObject;
  }
  return out;
}

function messagesOf(ns: protobuf.NamespaceBase | null): protobuf.Type[] {
  return (ns?.nestedArray ?? []).filter((n): n is protobuf.Type => n instanceof protobuf.Type);
}

/** Every message's full name, nested ones included, and those of the map entry types Glue counts with them. */
function glueIndexed(types: protobuf.Type[]): Array<{ name: string; mapEntry: boolean }> {
  return types.flatMap((t) => {
    const name = t.fullName.slice(1);
    const entries = t.fieldsArray.filter((f) => f instanceof protobuf.MapField).map((f) => ({ name: `${name}.${mapEntryName(f.name)}`, mapEntry: true }));
    return [{ name, mapEntry: false }, ...entries, ...glueIndexed(messagesOf(t))];
  });
}

/** As aws-glue-schema-registry's FileDescriptorUtils names a map field's entry type: `line_counts` -> `LineCountsEntry`. */
function mapEntryName(field: string): string {
  // Guava's LOWER_UNDERSCORE to UPPER_CAMEL when the name has an underscore, then the first letter capitalized.
  const camel = field.includes('_') ? field.split('_').map((w) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : '')).join('') : field;
  return `${camel.charAt(0).toUpperCase()}${camel.slice(1)}Entry`;
}

/** Adds protobufjs's copy of a well-known file (google/protobuf/timestamp.proto, ...); false when it ships none by that name. */
function addWellKnown(root: protobuf.Root, file: string): boolean {
  const json = protobuf.common.get(file);
  if (!json?.nested) return false;
  root.addJSON(json.nested);
  return true;
}
