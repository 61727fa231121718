import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ACCESS_ANY_OF_WORDING, ACCESS_PATTERN_WORDING, saslConflict } from './access.ts';
import { parseDestination } from './destination.ts';
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
 * the branches of an `anyOf` that do not match the value's type. When the type matches exactly
 * one branch, that branch's errors are precise; when it matches none, or several (a number that
 * is neither -1 nor in range), the `anyOf` error alone remains, worded for its property.
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
      if (fitting.length !== 1 || !fitting.includes(branch)) branchErrors.forEach((e) => dropped.add(e));
    }
    if (fitting.length === 1) dropped.add(any);
  }
  return errors.filter((e) => !dropped.has(e));
}

const REQUIRED_NOTES: Readonly<Record<string, string>> = {
  topic: 'the Kafka topic to consume',
  startingPositionTimestamp: 'startingPosition AT_TIMESTAMP needs the time to start from, in epoch seconds',
  onFailure: 'where records go that fail every retry or expire, e.g. onFailure: { destination: kafka://orders-failed }',
  destination: 'kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN, e.g. destination: kafka://orders-failed',
};

/** Keyed by where the value sits in the event: `bootstrapServers[]` is any item of the list. */
const PATTERN_WORDING: Readonly<Record<string, (value: unknown) => string>> = {
  topic: () => 'must be a valid Kafka topic name',
  consumerGroupId: () => 'must contain only letters, digits and -/*:_+=.@',
  bootstrapServers: () => 'must be "host:port" or a comma-separated list of them',
  'bootstrapServers[]': () => 'must be "host:port"',
  'destinationConfig.onFailure.destination': (value) =>
    parseDestination(String(value)).problem ?? 'must be kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN',
  arn: () => 'must be an MSK cluster ARN, arn:aws:kafka:<region>:<account>:cluster/<name>/<uuid>',
  ...ACCESS_PATTERN_WORDING,
};

const ANY_OF_WORDING: Readonly<Record<string, string>> = {
  bootstrapServers: 'must be a list of "host:port" strings or one comma-separated string',
  maximumRecordAgeInSeconds: 'must be -1 or 60–604800',
  'filterPatterns[]': 'must be a filter pattern: a map, or a JSON string of one',
  ...ACCESS_ANY_OF_WORDING,
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
  const key = segments.map((s) => (/^\d+$/.test(s) ? '[]' : `.${s}`)).join('').slice(1);
  const property = segments[0];
  // verbose: the schema object holding the failed keyword, e.g. a nested map's, with its own properties.
  const parent = (e.parentSchema ?? {}) as Partial<DescribedSchema>;
  const properties = parent.properties ?? schema.properties;
  const hint = parent.description ?? (property === undefined ? schema.description : schema.properties[property]?.description) ?? '';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const note = REQUIRED_NOTES[missing] ?? properties[missing]?.description.replace(/\.$/, '') ?? 'see the documentation';
      return `${where}: missing required property "${missing}" (${note}).`;
    }
    case 'additionalProperties': {
      const unknown = String(params.additionalProperty);
      const allowed = Object.keys(properties);
      const suggestion = closestName(unknown, allowed);
      return suggestion !== undefined
        ? `${where}: unknown property "${unknown}". Did you mean "${suggestion}"?`
        : `${where}: unknown property "${unknown}". Allowed properties: ${allowed.join(', ')}.`;
    }
    case 'not': {
      // The cross-field rules: one SASL mechanism at most, and startingPositionTimestamp only with AT_TIMESTAMP.
      if (key === 'accessConfigurations' && isPlainObject(e.data)) return saslConflict(where, e.data);
      const position = isPlainObject(e.data) ? e.data.startingPosition : undefined;
      return (
        `${where}: startingPositionTimestamp is only allowed with startingPosition AT_TIMESTAMP ` +
        `(got startingPosition ${position === undefined ? 'unset' : showValue(position)}). ` +
        'Set startingPosition: AT_TIMESTAMP, or remove startingPositionTimestamp.'
      );
    }
    default:
      return `${where}: ${wording(e, params, key)} (got ${showValue(e.data)}). ${hint}`.trim();
  }
}

function wording(e: ErrorObject, params: Record<string, unknown>, key: string): string {
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
    case 'maxItems':
      return `must list at most ${String(params.limit)} item(s)`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'pattern':
      return PATTERN_WORDING[key]?.(e.data) ?? `must match ${String(params.pattern)}`;
    case 'anyOf':
      return ANY_OF_WORDING[key] ?? 'matches none of the allowed forms';
    default:
      return e.message ?? 'is invalid';
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
