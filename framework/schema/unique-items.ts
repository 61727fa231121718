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
  if (!schema) return true;
  const seen = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const key = canonical(data[i]);
    const j = seen.get(key);
    if (j !== undefined) {
      // Ajv's own message and parameters.
      unique.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }];
      return false;
    }
    seen.set(key, i);
  }
  return true;
};

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
