/**
 * avsc types that keep a map key or record field named `__proto__` as data. avsc reads a map
 * with `val[key] = …` and builds a record with `this.<field> = …`, so that name sets the object's
 * prototype (or is dropped, for a primitive) instead of holding the value: the datum would reach
 * the handler without it. `ownKeysHook` (avsc's `typeHook`) builds maps, and records with such a
 * field, with readers that write into null-prototype objects, where `__proto__` is an ordinary
 * key; other records keep avsc's generated reader. avro-codec.ts copies the values out with
 * `setOwn`.
 */
import avro from 'avsc';

/** The part of avsc's internal reading API these readers use (avsc 5.7: lib/utils.js Tap, lib/types.js `_read`). */
interface Tap {
  readLong(): number;
  skipLong(): void;
  readString(): string;
}
type Reader = (tap: Tap) => unknown;
const readerOf = (type: avro.Type): Reader => {
  const t = type as unknown as { _read: Reader };
  return (tap) => t._read(tap);
};

const PROTO = '__proto__';

/** `out[key] = value`, except that `__proto__` becomes an own property instead of the prototype. */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === PROTO) Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

/** A map or array block's item count (a negative count is followed by the block's byte size). */
function blockCount(tap: Tap): number {
  const n = tap.readLong();
  if (n >= 0) return n;
  tap.skipLong();
  return -n;
}

class OwnKeysMapType extends avro.types.MapType {
  _read(tap: Tap): Record<string, unknown> {
    const read = readerOf(this.valuesType as avro.Type);
    const out = Object.create(null) as Record<string, unknown>;
    for (let n = blockCount(tap); n > 0; n = blockCount(tap)) {
      for (; n > 0; n--) {
        const key = tap.readString();
        out[key] = read(tap);
      }
    }
    return out;
  }
}

export class OwnFieldsRecordType extends avro.types.RecordType {
  /** Called by avsc's constructor, once the fields are set, in place of its generated reader. */
  _createReader(): Reader {
    const fields = this.fields.map((f) => ({ name: f.name, read: readerOf(f.type) }));
    return (tap) => {
      const out = Object.create(null) as Record<string, unknown>;
      for (const f of fields) out[f.name] = f.read(tap);
      return out;
    };
  }
}

/** Whether a record schema has a field named `__proto__` (ownKeysHook builds it as an OwnFieldsRecordType). */
export function hasProtoField(schema: { fields?: unknown }): boolean {
  return Array.isArray(schema.fields) && schema.fields.some((f: { name?: unknown } | null) => f?.name === PROTO);
}

/** avsc's `typeHook`: the types above for maps and for records with a `__proto__` field; avsc's own otherwise. */
export function ownKeysHook(schema: avro.Schema, opts: avro.ForSchemaOptions): avro.Type | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as { type?: unknown; fields?: unknown };
  if (s.type === 'map') return new OwnKeysMapType(schema, opts);
  if ((s.type === 'record' || s.type === 'error') && hasProtoField(s)) return new OwnFieldsRecordType(schema, opts);
  return undefined;
}
