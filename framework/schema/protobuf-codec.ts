/**
 * Protobuf with protobufjs (.proto text parsed at run time, no generated code; the library
 * Powertools' Kafka deserializer uses). Referenced files are parsed into one root before the
 * schema; Google's well-known types come from protobufjs's own copies.
 *
 * Which message of the file a record holds is written before it:
 * - Confluent: message indexes, the path of the type among the file's messages in declaration
 *   order (top level, then nested), wire.ts reads them;
 * - Glue: one unsigned varint, the type's position among all the file's messages, nested ones
 *   included, sorted by full name (aws-glue-schema-registry's MessageIndexFinder). Glue's
 *   descriptors also hold the entry type of each map field (`Cart.AttributesEntry`, named as its
 *   FileDescriptorUtils names it), so those take a position too.
 *
 * JSON rendering: proto3's JSON mapping as protobufjs writes it: lowerCamelCase field names,
 * 64-bit integers as strings, enums by name, bytes as base64, fields at their default left out.
 */
import protobuf from 'protobufjs';
import { DecodeError, decoding } from './decode-error.ts';
import type { Codec } from './codec.ts';
import type { RegisteredSchema } from './registry.ts';
import { readMessageIndexes, type RegistryKind } from './wire.ts';

const PARSE = { keepCase: false, alternateCommentMode: false } as const;
const TO_JSON = { longs: String, enums: String, bytes: String, json: true } as const;

export function protobufCodec(schema: RegisteredSchema, registry: RegistryKind): Codec {
  const root = new protobuf.Root();
  const parsedFiles = new Set<string>();
  const parseInto = (s: RegisteredSchema, name: string) => {
    if (parsedFiles.has(name)) return;
    parsedFiles.add(name);
    for (const ref of s.references) parseInto(ref.schema, ref.name);
    const { imports = [] } = protobuf.parse(s.definition, root, PARSE);
    for (const file of imports) addWellKnown(root, file);
  };
  parseInto(schema, '');
  root.resolveAll();
  // The file's own messages, in declaration order, from a root holding nothing else (field names as written).
  const own = protobuf.parse(schema.definition, new protobuf.Root(), { ...PARSE, keepCase: true });
  const top = (own.package ? own.root.lookup(own.package) : own.root) as protobuf.Namespace | null;
  const topLevel = messagesOf(top);
  const byPath = (indexes: number[]): protobuf.Type => {
    let candidates = topLevel;
    let type: protobuf.Type | undefined;
    for (const i of indexes) {
      type = candidates[i];
      if (!type) throw new DecodeError(`message index ${indexes.join('.')} names no message of the schema`);
      candidates = messagesOf(type);
    }
    return root.lookupType(type!.fullName);
  };
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
  };
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

function addWellKnown(root: protobuf.Root, file: string): void {
  const json = protobuf.common.get(file);
  if (json?.nested) root.addJSON(json.nested);
}
