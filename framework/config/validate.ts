import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isPlainObject, showValue } from './path.ts';
import { sluiceCustomSchema, sluiceEventSchema, type SluiceCustomInput, type SluiceEventInput } from './schema.ts';
import { closestName } from './suggest.ts';

/**
 * Validates `sluice:` events and `custom.sluice` with the JSON schemas and turns ajv's errors
 * into one line per problem: `<path>: <what is wrong> (got <value>). <how to fix>`.
 * Types are coerced as the Serverless Framework does (a "500" from `${env:…}` is 500);
 * an empty (null) property counts as not set. Defaults are applied by trigger.ts, not here.
 */
export interface Checked<T> {
  /** The validated (and coerced) value; undefined when there are problems. */
  value: T | undefined;
  problems: string[];
}

/** Same strictness as the Serverless Framework's own validator, so both accept the same files. */
const ajv = new Ajv({ allErrors: true, useDefaults: false, coerceTypes: true, verbose: true, strict: true, strictRequired: false });
const validateEvent = ajv.compile<SluiceEventInput>(sluiceEventSchema);
const validateCustom = ajv.compile<SluiceCustomInput>(sluiceCustomSchema);

/** `path` is where the event sits, e.g. `functions.orders.events[0].sluice`. */
export function checkSluiceEvent(input: unknown, path: string): Checked<SluiceEventInput> {
  return check(validateEvent, sluiceEventSchema, input, path);
}

export function checkSluiceCustom(input: unknown, path = 'custom.sluice'): Checked<SluiceCustomInput> {
  return check(validateCustom, sluiceCustomSchema, input, path);
}

interface DescribedSchema {
  description: string;
  properties: Readonly<Record<string, { description: string }>>;
}

function check<T>(validate: ValidateFunction<T>, schema: DescribedSchema, input: unknown, path: string): Checked<T> {
  const data = isPlainObject(input) ? Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null)) : input ?? {};
  if (validate(data)) return { value: data, problems: [] };
  const lines = relevant(validate.errors ?? []).map((e) => describe(e, schema, path));
  return { value: undefined, problems: [...new Set(lines)] };
}

/**
 * Drops the noise of composite keywords: `if` failures (their `then` says what is missing), and
 * the branches of an `anyOf` that do not match the value's type. When the type matches no
 * branch, the `anyOf` error alone remains; otherwise the matching branch's errors are precise.
 */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>(errors.filter((e) => e.keyword === 'if'));
  for (const any of errors.filter((e) => e.keyword === 'anyOf')) {
    const branches = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      const branch = new RegExp(`^${escape(any.schemaPath)}/(\\d+)/`).exec(e.schemaPath)?.[1];
      if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const wrongType = (branch: string) =>
      (branches.get(branch) ?? []).some((e) => e.keyword === 'type' && e.instancePath === any.instancePath);
    const fitting = [...branches.keys()].filter((b) => !wrongType(b));
    for (const [branch, branchErrors] of branches) {
      if (fitting.length === 0 || !fitting.includes(branch)) branchErrors.forEach((e) => dropped.add(e));
    }
    if (fitting.length > 0) dropped.add(any);
  }
  return errors.filter((e) => !dropped.has(e));
}

const REQUIRED_NOTES: Readonly<Record<string, string>> = {
  topic: 'the Kafka topic to consume',
  startingPositionTimestamp: 'startingPosition AT_TIMESTAMP needs the time to start from, in epoch seconds',
};

const PATTERN_WORDING: Readonly<Record<string, string>> = {
  topic: 'must be a valid Kafka topic name',
  consumerGroupId: 'must contain only letters, digits and -/*:_+=.@',
  bootstrapServers: 'must be "host:port" or a comma-separated list of them',
  'bootstrapServers[]': 'must be "host:port"',
};

const TYPE_WORDING: Readonly<Record<string, string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a map',
  array: 'a list',
};

function describe(e: ErrorObject, schema: DescribedSchema, path: string): string {
  const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = path + segments.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`)).join('');
  const property = segments[0];
  const hint = (property === undefined ? schema.description : schema.properties[property]?.description) ?? '';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const note = REQUIRED_NOTES[missing] ?? schema.properties[missing]?.description ?? 'see the documentation';
      return `${where}: missing required property "${missing}" (${note}).`;
    }
    case 'additionalProperties': {
      const unknown = String(params.additionalProperty);
      const allowed = Object.keys(schema.properties);
      const suggestion = closestName(unknown, allowed);
      return suggestion !== undefined
        ? `${where}: unknown property "${unknown}". Did you mean "${suggestion}"?`
        : `${where}: unknown property "${unknown}". Allowed properties: ${allowed.join(', ')}.`;
    }
    case 'not': {
      // The only `not` is the cross-field rule: startingPositionTimestamp only with AT_TIMESTAMP.
      const position = isPlainObject(e.data) ? e.data.startingPosition : undefined;
      return (
        `${where}: startingPositionTimestamp is only allowed with startingPosition AT_TIMESTAMP ` +
        `(got startingPosition ${position === undefined ? 'unset' : showValue(position)}). ` +
        'Set startingPosition: AT_TIMESTAMP, or remove startingPositionTimestamp.'
      );
    }
    default:
      return `${where}: ${wording(e, params, property, segments.length > 1)} (got ${showValue(e.data)}). ${hint}`.trim();
  }
}

function wording(e: ErrorObject, params: Record<string, unknown>, property: string | undefined, isItem: boolean): string {
  switch (e.keyword) {
    case 'type':
      return `must be ${TYPE_WORDING[String(params.type)] ?? String(params.type)}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minLength':
      return `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `must list at least ${String(params.limit)} item(s)`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'pattern':
      return PATTERN_WORDING[`${property ?? ''}${isItem ? '[]' : ''}`] ?? `must match ${String(params.pattern)}`;
    case 'anyOf':
      return property === 'bootstrapServers'
        ? 'must be a list of "host:port" strings or one comma-separated string'
        : 'matches none of the allowed forms';
    default:
      return e.message ?? 'is invalid';
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
