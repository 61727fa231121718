/**
 * A budget of decoded items for one Avro record (`maxAvroItems`): items of arrays, entries of
 * maps and the fields of every record read (records in records take no bytes either when their
 * innermost fields are `null`: ten fields of ten fields … six deep decoded 10^6 objects, 240 MB,
 * from an empty body), summed over the record, each charged before it is read. An Avro item can take no bytes
 * (`null`, a record without fields), so a 5-byte payload can declare 2^32-1 of them; avsc believes
 * a block's count, preallocates an array of it (20 M items: 156 MB before the first is read) and
 * reads on past the payload's end before noticing it is short. Past the budget, decoding throws
 * DecodeError: the record's DESERIALIZATION_ERROR.
 *
 * avsc freezes the types it builds, so the budget is built in, by avsc's `typeHook`: an array is an
 * ArrayType whose reader charges each block's count before the array is sized by it or its items
 * are read; a map keeps its own reader (the next hook's, e.g. avro-own-keys.ts, or
 * avsc's) and reads its values through a view of their type that charges one entry per value.
 */
import avro from 'avsc';
import { hasProtoField, OwnFieldsRecordType } from './avro-own-keys.ts';
import { DecodeError } from './decode-error.ts';

/** The part of avsc's internal reading API used here (avsc 5.7: lib/utils.js Tap, lib/types.js `_read`). */
interface Tap {
  readLong(): number;
  skipLong(): void;
}
type Readable = { _read(tap: Tap): unknown };
const readable = (type: avro.Type) => type as unknown as Readable;
export type TypeHook = (schema: avro.Schema, opts: avro.ForSchemaOptions) => avro.Type | undefined;

export interface ItemBudget {
  /** avsc's `typeHook` building arrays and maps that charge the budget; other schemas go to `next`. */
  hook(next?: TypeHook): TypeHook;
  /** Starts a record's budget: call before decoding each record. */
  renew(): void;
}

export function itemBudget(maxItems: number): ItemBudget {
  let left = 0;
  const take = (n: number) => {
    left -= n;
    if (left < 0) throw new DecodeError(`the record holds more than ${maxItems} items of arrays and maps and fields of records (the bound maxAvroItems)`);
  };

  /** avsc's array reader (lib/types.js ArrayType#_read), with each block's count charged before the array is sized by it. */
  class ChargedArrayType extends avro.types.ArrayType {
    _read(tap: Tap): unknown[] {
      const items = readable(this.itemsType);
      let out: unknown[] | undefined;
      let i = 0;
      for (let n = blockCount(tap); n > 0; n = blockCount(tap)) {
        take(n);
        out ??= new Array<unknown>(n);
        for (; n > 0; n--) out[i++] = items._read(tap);
      }
      return out ?? [];
    }
  }

  /** A view of a map's values type whose reader charges one entry first (avsc's types are frozen, the view is not). */
  const chargedValues = (values: avro.Type): avro.Type =>
    Object.create(values, { _read: { value: (tap: Tap) => (take(1), readable(values)._read(tap)) } }) as avro.Type;

  /** A record type whose reader charges its fields (at least one) before reading them: avsc's, or the one keeping `__proto__`. */
  const chargedRecord = (Base: typeof avro.types.RecordType) =>
    class extends Base {
      _createReader(): (tap: Tap) => unknown {
        const read = (Base.prototype as unknown as { _createReader(this: unknown): (tap: Tap) => unknown })._createReader.call(this);
        const cost = Math.max(1, this.fields.length);
        return (tap) => (take(cost), read(tap));
      }
    };
  const ChargedRecordType = chargedRecord(avro.types.RecordType);
  const ChargedOwnFieldsRecordType = chargedRecord(OwnFieldsRecordType);

  return {
    hook: (next) => (schema, opts) => {
      const kind = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as { type?: unknown }).type : undefined;
      if (kind === 'array') return new ChargedArrayType(schema, opts);
      if (kind === 'record' || kind === 'error') {
        return hasProtoField(schema as { fields?: unknown }) ? new ChargedOwnFieldsRecordType(schema, opts) : new ChargedRecordType(schema, opts);
      }
      if (kind !== 'map') return next?.(schema, opts);
      const map = schema as avro.schema.MapType;
      // avsc takes a type where a schema is expected as it is, so the map is built around the view.
      const charged = { ...map, values: chargedValues(avro.Type.forSchema(map.values, opts)) } as unknown as avro.schema.MapType;
      return next?.(charged, opts) ?? new avro.types.MapType(charged, opts);
    },
    renew: () => void (left = maxItems),
  };
}

/** A block's item count (a negative count is followed by the block's byte size). */
function blockCount(tap: Tap): number {
  const n = tap.readLong();
  if (n >= 0) return n;
  tap.skipLong();
  return -n;
}
