/**
 * JSON Schema's `uniqueItems`, in time linear in the array: each item's canonical JSON text
 * (object keys sorted) goes into a Map, and an item whose text is already there is a duplicate.
 * Ajv's own keyword compares every pair of items with a deep equality unless the schema declares
 * them scalar: 40,000 small objects (309 KB) blocked the poller's thread for 24.6 s, and every
 * draft has the keyword. Replacing it, rather than charging its n² to a budget or refusing schemas
 * that use it, keeps every verdict Ajv gave (two JSON values are equal when their canonical texts
 * are: the same keys with equal values, arrays item by item, 1.0 and 1 and -0 and 0 equal), refuses
 * no record or schema, and costs about what JSON.stringify of the array costs.
 */
import type { Ajv, FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';
import { DecodeError } from './decode-error.ts';

/** Replaces the Ajv instance's `uniqueItems` with the linear one; before any schema is compiled. */
export function useLinearUniqueItems(ajv: Pick<Ajv, 'removeKeyword' | 'addKeyword'>): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(UNIQUE_ITEMS);
}

const unique: SchemaValidateFunction = (schema: boolean, data: unknown[]) => {
  if (!schema || data.length < 2) return true;
  // A cheap key first: a scalar's is exact; an object's or array's says only its kind and size, and
  // only items that share one are compared by their canonical text (so an item nested too deep to
  // compare is refused only when another could equal it, as Ajv's deep equality would recurse there).
  const byCheap = new Map<string, number[]>();
  let first: { i: number; j: number } | undefined;
  for (let i = 0; i < data.length; i++) {
    const key = cheapKey(data[i]);
    const same = byCheap.get(key);
    if (!same) {
      byCheap.set(key, [i]);
      continue;
    }
    if (isComposite(data[i])) same.push(i);
    else if (!first) first = { i, j: same[0]! }; // the first scalar repeat; a composite one may come earlier
  }
  for (const same of byCheap.values()) {
    if (same.length < 2) continue;
    const seen = new Map<string, number>();
    for (const i of same) {
      const key = canonical(data[i]);
      const j = seen.get(key);
      if (j !== undefined) {
        if (!first || i < first.i) first = { i, j };
        break;
      }
      seen.set(key, i);
    }
  }
  return first ? duplicate(first.j, first.i) : true;
};

/** Ajv's own message and parameters, for items j < i. */
function duplicate(j: number, i: number): false {
  unique.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }];
  return false;
}

const isComposite = (v: unknown) => typeof v === 'object' && v !== null;

/** A scalar's exact JSON text with its type; an object's or array's kind and size. */
function cheapKey(v: unknown): string {
  if (Array.isArray(v)) return `a${v.length}`;
  if (isComposite(v)) return `o${Object.keys(v as object).length}`;
  return `s${typeof v}:${JSON.stringify(v)}`;
}

const UNIQUE_ITEMS: FuncKeywordDefinition = { keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', validate: unique };

/** The JSON text of a value with every object's keys sorted; equal JSON values, and only they, have the same text. */
function canonical(value: unknown): string {
  try {
    return JSON.stringify(value, sortedKeys);
  } catch (e) {
    // JSON.stringify recurses: an item nested deep enough exhausts the stack, as Ajv's deep equality did.
    throw new DecodeError(`an item of an array whose items must be unique cannot be compared: ${(e as Error).message}`);
  }
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(object).sort()) Object.defineProperty(out, k, { value: object[k], enumerable: true });
  return out;
}
