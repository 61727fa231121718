/**
 * Checks a log line against the CloudWatch Embedded Metric Format specification: a JSON schema
 * written from the spec's document structure (root `_aws` metadata with an integer Timestamp and
 * MetricDirectives of Namespace, DimensionSets of at most 30 names, at most 100 MetricDefinitions
 * with a Unit from CloudWatch's list and StorageResolution 1 or 60), plus the rules a schema
 * cannot say: every referenced dimension is a string member of the root and every referenced
 * metric a number (or an array of at most 100 numbers).
 */
import { Ajv } from 'ajv';

const UNITS = [
  'Seconds', 'Microseconds', 'Milliseconds', 'Bytes', 'Kilobytes', 'Megabytes', 'Gigabytes', 'Terabytes', 'Bits', 'Kilobits', 'Megabits', 'Gigabits', 'Terabits',
  'Percent', 'Count', 'Bytes/Second', 'Kilobytes/Second', 'Megabytes/Second', 'Gigabytes/Second', 'Terabytes/Second', 'Bits/Second', 'Kilobits/Second',
  'Megabits/Second', 'Gigabits/Second', 'Terabits/Second', 'Count/Second', 'None',
];

const schema = {
  type: 'object',
  required: ['_aws'],
  properties: {
    _aws: {
      type: 'object',
      required: ['Timestamp', 'CloudWatchMetrics'],
      properties: {
        Timestamp: { type: 'integer', minimum: 0 },
        CloudWatchMetrics: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['Namespace', 'Dimensions', 'Metrics'],
            additionalProperties: false,
            properties: {
              Namespace: { type: 'string', minLength: 1, maxLength: 1024, pattern: '\\S' },
              Dimensions: {
                type: 'array',
                items: { type: 'array', minItems: 1, maxItems: 30, items: { type: 'string', minLength: 1, maxLength: 250 } },
              },
              Metrics: {
                type: 'array',
                minItems: 1,
                maxItems: 100,
                items: {
                  type: 'object',
                  required: ['Name'],
                  additionalProperties: false,
                  properties: {
                    Name: { type: 'string', minLength: 1, maxLength: 1024 },
                    Unit: { enum: UNITS },
                    StorageResolution: { enum: [1, 60] },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

export interface EmfDocument {
  _aws: { Timestamp: number; CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit?: string; StorageResolution?: number }> }> };
  [member: string]: unknown;
}

/** Parses and checks one line; throws with every problem found. */
export function checkEmf(line: string): EmfDocument {
  const doc = JSON.parse(line) as EmfDocument;
  const problems = validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  for (const d of problems.length ? [] : doc._aws.CloudWatchMetrics) {
    for (const name of d.Dimensions.flat()) {
      if (typeof doc[name] !== 'string') problems.push(`dimension ${name} is not a string member of the root`);
    }
    for (const { Name } of d.Metrics) {
      const v = doc[Name];
      const numbers = Array.isArray(v) ? v : [v];
      if (numbers.length === 0 || numbers.length > 100 || !numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) problems.push(`metric ${Name} is not a number or an array of 1–100 numbers`);
    }
  }
  if (problems.length) throw new Error(`not an EMF document (${problems.join('; ')}): ${line}`);
  return doc;
}
