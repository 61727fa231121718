/**
 * Avro with avsc (the fastest Avro implementation for JavaScript, maintained since 2015, no
 * dependencies). Referenced schemas are named types, compiled into one registry before the
 * schema that uses them, each once (by reference name) however many schemas reference it. The
 * whole payload must be one datum: trailing bytes are an error.
 *
 * JSON rendering: plain JSON, not Avro's JSON encoding. Unions are unwrapped (`"x"`, not
 * `{"string": "x"}`), `bytes` and `fixed` become base64 text, enums their symbol, and a `long`
 * beyond 2^53 keeps every digit. avsc refuses to compile unions it cannot unwrap unambiguously
 * (two records, string and enum, int and long), which Avro allows and registries accept; so the
 * schema is compiled with wrapped unions and each value unwrapped after decoding, by its type.
 * A map key or field named `__proto__` is kept as data, as Protobuf keeps it (avro-own-keys.ts).
 */
import avro from 'avsc';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { itemBudget } from './avro-item-budget.ts';
import { ownKeysHook, setOwn } from './avro-own-keys.ts';
import { decoding, EncodeError } from './decode-error.ts';
import type { Codec } from './codec.ts';
import { toJsonText } from './json-text.ts';
import type { RegisteredSchema } from './registry.ts';

/** Longs decode as BigInt only when a double would round them. */
const longType = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => {
    const n = b.readBigInt64LE();
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  },
  toBuffer: (n: number | bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt(n));
    return b;
  },
  fromJSON: (n: number | string) => (typeof n === 'string' ? BigInt(n) : n),
  toJSON: (n: number | bigint) => (typeof n === 'bigint' ? n.toString() : n),
  // A digit string too (the exact form of a long past 2^53, as decode renders it; produce --subject writes it).
  isValid: (n: unknown) => typeof n === 'bigint' || Number.isInteger(n) || (typeof n === 'string' && /^-?\d+$/.test(n)),
  compare: (a: number | bigint, b: number | bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

/**
 * The schema compiled with its references into a registry of its own. A reference shared by
 * several (A -> B, C; B, C -> D) is compiled once: avsc refuses a name defined twice.
 */
function compileAvro(schema: RegisteredSchema, options: { wrapUnions: boolean | 'auto'; typeHook?: (s: avro.Schema, o: avro.ForSchemaOptions) => avro.Type | undefined }): avro.Type {
  const registry: Record<string, avro.Type> = { long: longType };
  const compiled = new Set<string>();
  const compile = (s: RegisteredSchema): avro.Type => {
    for (const ref of s.references) {
      if (compiled.has(ref.name) || registry[ref.name]) continue;
      compiled.add(ref.name);
      compile(ref.schema);
    }
    return avro.Type.forSchema(JSON.parse(s.definition) as avro.Schema, { ...options, registry });
  };
  return compile(schema);
}

export function avroCodec(schema: RegisteredSchema): Codec {
  const items = itemBudget(INPUT_BOUNDS.maxAvroItems);
  const type = compileAvro(schema, { wrapUnions: true, typeHook: items.hook(ownKeysHook) });
  // Writing takes plain JSON (a union's value as it is, not {"string": …}): a type of its own, compiled when first asked for.
  // 'auto': a union is written from the plain value unless its branches are ambiguous (two
  // records), which take Avro's JSON form, {"shop.Card": {…}}.
  let plain: avro.Type | undefined;
  const plainType = () => {
    try {
      return (plain ??= compileAvro(schema, { wrapUnions: 'auto' }));
    } catch (e) {
      throw new EncodeError(`the Avro schema cannot be compiled for writing: ${(e as Error).message}`);
    }
  };
  return {
    encode: (value) => {
      const t = plainType();
      const wrong: string[] = [];
      if (!t.isValid(value, { errorHook: (path) => wrong.push(path.join('.') || '(the value)') })) {
        throw new EncodeError(`the value does not fit the Avro schema at ${wrong.slice(0, 3).join(', ')}`);
      }
      return t.toBuffer(value);
    },
    decode: (payload) => {
      items.renew();
      return decoding('Avro', () => unwrapUnions(type, type.fromBuffer(payload)));
    },
    toJson: toJsonText,
  };
}

/** A value decoded with wrapped unions, each union's value replaced by its branch's value. */
function unwrapUnions(type: avro.Type, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (type instanceof avro.types.WrappedUnionType) {
    const [branch] = Object.keys(value);
    const branchType = type.types.find((t) => t.branchName === branch);
    return branchType ? unwrapUnions(branchType, (value as Record<string, unknown>)[branch!]) : value;
  }
  if (type instanceof avro.types.RecordType) {
    const out: Record<string, unknown> = {};
    for (const field of type.fields) setOwn(out, field.name, unwrapUnions(field.type, (value as Record<string, unknown>)[field.name]));
    return out;
  }
  if (type instanceof avro.types.ArrayType) return (value as unknown[]).map((item) => unwrapUnions(type.itemsType, item));
  if (type instanceof avro.types.MapType) {
    const values = type.valuesType as avro.Type;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapUnions(values, v)]));
  }
  return value;
}
