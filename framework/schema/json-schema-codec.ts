/**
 * JSON Schema with Ajv (already Sluice's validator for serverless.yml): the payload is UTF-8
 * JSON text, valid against the registered schema (drafts 4 to 2020-12, by its `$schema`),
 * whose referenced schemas are added under the names the schema refers to them by. Unknown
 * keywords and formats are allowed, as registries accept them; the value is delivered as
 * written, so `toJson` returns the producer's own text.
 *
 * The draft is chosen by `$schema` (draft-07 when it names none Ajv knows):
 * - 2020-12 and 2019-09: Ajv's own classes for them;
 * - draft-07: Ajv's default class;
 * - draft-06: the default class with Ajv's bundled draft-06 meta-schema added (Ajv's documented
 *   way: draft-07's keywords are draft-06's, plus if/then/else, which a draft-06 schema does
 *   not use);
 * - draft-04: `ajv-draft-04`, the Ajv project's class for it, as draft-04 differs in meaning,
 *   not only in its meta-schema: `id` instead of `$id`, boolean exclusiveMinimum/Maximum that
 *   modify minimum/maximum. Chosen over rewriting the schema to draft-06 with validateSchema
 *   off, which would validate no draft-04 schema and miss whatever the rewrite did not know.
 * Every draft's `uniqueItems` is checked in linear time (unique-items.ts): Ajv's compares every pair.
 */
import { Ajv, type AnySchema, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import ajvDraft04 from 'ajv-draft-04';
import { DecodeError, decoding, EncodeError } from './decode-error.ts';
import type { Codec } from './codec.ts';
import type { RegisteredSchema } from './registry.ts';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { linearRegExp, type PatternBudget } from './safe-pattern.ts';
import { useLinearUniqueItems } from './unique-items.ts';

const OPTIONS = { strict: false, validateFormats: false, allErrors: false, logger: false } as const;

export function jsonSchemaCodec(schema: RegisteredSchema): Codec {
  const root = JSON.parse(schema.definition) as Record<string, unknown>;
  const draft = typeof root['$schema'] === 'string' ? root['$schema'] : '';
  // `code.regExp`: patterns run by RE2 in linear time, charged to a budget renewed for each record (safe-pattern.ts).
  // `optimize: false`: Ajv's passes over the generated code took 4/5 of the compile (1.5 s of 1.8 s for 1,500 properties).
  const patternBudget: PatternBudget = { left: 0 };
  const ajv = validatorFor(draft, { ...OPTIONS, code: { optimize: false, regExp: linearRegExp(patternBudget) } });
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
      patternBudget.left = INPUT_BOUNDS.maxPatternSteps;
      if (!validate(value)) {
        const first = validate.errors?.[0];
        throw new DecodeError(`the JSON does not match the registered schema: ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'}`);
      }
      if (typeof value === 'object' && value !== null) texts.set(value, text);
      return value;
    },
    toJson: (value) => (typeof value === 'object' && value !== null && texts.get(value)) || JSON.stringify(value),
    // The JSON text as given, once it is valid: the bytes a JSON Schema serializer writes are JSON text.
    encode: (value, text) => {
      patternBudget.left = INPUT_BOUNDS.maxPatternSteps;
      if (!validate(value)) {
        const first = validate.errors?.[0];
        throw new EncodeError(`the value does not match the JSON Schema: ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'}`);
      }
      return Buffer.from(text, 'utf8');
    },
  };
}

/** The Ajv instance for the draft a `$schema` URL names, with the linear `uniqueItems`. */
export function validatorFor(draft: string, options: Options): Ajv {
  const ajv = ajvFor(draft, options);
  useLinearUniqueItems(ajv);
  return ajv;
}

function ajvFor(draft: string, options: Options): Ajv {
  if (draft.includes('2020-12')) return new Ajv2020(options);
  if (draft.includes('2019-09')) return new Ajv2019(options);
  if (draft.includes('draft-04')) return new ajvDraft04.default(options);
  const ajv = new Ajv(options);
  if (draft.includes('draft-06')) ajv.addMetaSchema(draft06MetaSchema);
  return ajv;
}
