/**
 * docs/reference.md, generated from the JSON schemas the plugin registers with the Serverless
 * Framework (framework/config/schema.ts: the `sluice` event and `custom.sluice`), so the schema
 * is the one source of every property's type, range, default and description. AWS's name for a
 * property, where it has one, is the schema's `$comment` ("AWS: <name>"), a keyword every JSON
 * schema validator ignores. `npm run docs:reference` writes the page; reference.test.ts fails
 * when the committed page differs from what this renders.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sluiceCustomSchema, sluiceEventSchema } from '../../framework/config/schema.ts';

export const REFERENCE_PAGE = fileURLToPath(new URL('../../docs/reference.md', import.meta.url));
export const REFERENCE_COMMAND = 'npm run docs:reference';

interface Schema {
  description?: string;
  $comment?: string;
  type?: string;
  enum?: readonly unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: readonly Schema[];
  items?: Schema;
  properties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
}

export interface Row {
  key: string;
  type: string;
  values: string;
  default: string;
  aws: string;
  description: string;
}

/** Every property the schema accepts, depth first, as `a.b`, with `[]` for the items of a list. */
export function rows(schema: Schema, prefix = ''): Row[] {
  const out: Row[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const key = `${prefix}${name}`;
    const required = schema.required?.includes(name) ?? false;
    out.push({
      key,
      type: typeOf(property),
      values: valuesOf(property),
      default: required ? '(required)' : property.default === undefined ? '' : show(property.default),
      aws: awsName(property),
      description: property.description ?? '',
    });
    if (property.properties) out.push(...rows(property, `${key}.`));
    if (property.items?.properties) out.push(...rows(property.items, `${key}[].`));
  }
  return out;
}

function awsName(s: Schema): string {
  const match = /^AWS: (.+)$/.exec(s.$comment ?? '');
  return match ? match[1]! : '';
}

function typeOf(s: Schema): string {
  if (s.enum) return typeof s.enum[0] === 'number' ? 'integer' : 'string';
  if (s.type === 'array') return `${s.items ? typeOf(s.items) : 'any'}[]`.replace(/^(.* \| .*)\[\]$/, '($1)[]');
  if (s.type) return s.type;
  if (s.anyOf) return [...new Set(s.anyOf.map(typeOf))].join(' | ');
  return 'any';
}

function valuesOf(s: Schema): string {
  const parts: string[] = [];
  if (s.enum) parts.push(s.enum.map(show).join(', '));
  if (s.const !== undefined) parts.push(show(s.const));
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(range(s.minimum, s.maximum));
  if (s.minLength !== undefined || s.maxLength !== undefined) parts.push(`${range(s.minLength, s.maxLength)} characters`);
  if (s.minItems !== undefined || s.maxItems !== undefined) parts.push(`${range(s.minItems, s.maxItems)} ${(s.maxItems ?? s.minItems) === 1 ? "item" : "items"}`);
  if (s.anyOf) parts.push(s.anyOf.map(valuesOf).filter(Boolean).join(' or '));
  return parts.filter(Boolean).join('; ');
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `${min}` : min < 0 ? `${min} to ${max}` : `${min}–${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => (text === '' ? '' : `\`${text}\``);

function table(list: Row[]): string {
  const head = '| key | type | values | default | AWS name | description |\n| --- | --- | --- | --- | --- | --- |';
  const body = list.map((r) =>
    `| ${code(r.key)} | ${cell(r.type)} | ${cell(r.values)} | ${cell(r.default === '(required)' ? 'required' : code(r.default))} | ${cell(code(r.aws))} | ${cell(r.description)} |`,
  );
  return [head, ...body].join('\n');
}

export function renderReference(): string {
  const event = sluiceEventSchema as unknown as Schema;
  const custom = sluiceCustomSchema as unknown as Schema;
  return `<!-- Generated from framework/config/schema.ts by \`${REFERENCE_COMMAND}\`: edit the schema, not this page. -->
# Configuration reference

Every property a \`sluice:\` trigger and \`custom.sluice\` accept, with its type, allowed values,
default, the name AWS's Kafka event source mapping gives it (where it has one) and what it means.
This page is generated from the JSON schema the plugin registers with the Serverless Framework, the
same schema \`npm start\` and every \`serverless\` command validate \`serverless.yml\` with, so it lists
exactly what they accept. The descriptions are also the "how to fix" sentences of the validation
errors. Guides: [declaring triggers](triggers.md), [failures and destinations](failures.md),
[MSK and security](msk-and-security.md), [schema registries](schema-registries.md),
[deploying](deploying.md), [operating](operating.md).

A default left blank is not a constant: the description says what an omitted value means (for
example \`consumerGroupId\` and \`maximumBatchingWindow\`). Rules between properties (a heartbeat
interval below a third of the session timeout, a destination for every retry limit, …) are checked
after the schema; [declaring triggers](triggers.md) and [failures](failures.md) describe them.

## The \`sluice\` event (\`functions.<name>.events[].sluice\`)

${cell(event.description ?? '')}

${table(rows(event))}

## \`custom.sluice\`

${cell(custom.description ?? '')}

${table(rows(custom))}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(REFERENCE_PAGE, renderReference());
  console.error(`sluice: wrote ${REFERENCE_PAGE}`);
}
