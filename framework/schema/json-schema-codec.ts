/**
 * JSON Schema with Ajv (already Sluice's validator for serverless.yml): the payload is UTF-8
 * JSON text, valid against the registered schema (drafts 4 to 2020-12, by its `$schema`),
 * whose referenced schemas are added under the names the schema refers to them by. Unknown
 * keywords and formats are allowed, as registries accept them; the value is delivered as
 * written, so `toJson` returns the producer's own text.
 */
import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DecodeError, decoding } from './decode-error.ts';
import type { Codec } from './codec.ts';
import type { RegisteredSchema } from './registry.ts';

const OPTIONS = { strict: false, validateFormats: false, allErrors: false, logger: false } as const;

export function jsonSchemaCodec(schema: RegisteredSchema): Codec {
  const root = JSON.parse(schema.definition) as Record<string, unknown>;
  const draft = typeof root['$schema'] === 'string' ? root['$schema'] : '';
  const ajv = draft.includes('2020-12') ? new Ajv2020(OPTIONS) : draft.includes('2019-09') ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
  const added = new Set<string>();
  const addReferences = (s: RegisteredSchema) => {
    for (const ref of s.references) {
      if (added.has(ref.name)) continue;
      added.add(ref.name);
      addReferences(ref.schema);
      ajv.addSchema(JSON.parse(ref.schema.definition) as AnySchema, ref.name);
    }
  };
  addReferences(schema);
  const validate: ValidateFunction = ajv.compile(root);
  const texts = new WeakMap<object, string>();
  return {
    decode(payload) {
      const text = payload.toString('utf8');
      const value = decoding('JSON', () => JSON.parse(text) as unknown);
      if (!validate(value)) {
        const first = validate.errors?.[0];
        throw new DecodeError(`the JSON does not match the registered schema: ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'}`);
      }
      if (typeof value === 'object' && value !== null) texts.set(value, text);
      return value;
    },
    toJson: (value) => (typeof value === 'object' && value !== null && texts.get(value)) || JSON.stringify(value),
  };
}
