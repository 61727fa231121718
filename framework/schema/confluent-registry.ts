/**
 * A Confluent-compatible registry over its REST API (Confluent Schema Registry, Apicurio's
 * /apis/ccompat/v7, Karapace, Redpanda): `GET /schemas/ids/{id}` for a record's schema, and
 * `GET /subjects/{subject}/versions/{version}` for each schema it references, recursively.
 * The schema type is absent for Avro, as the API writes it. Only a 404 carrying the API's own
 * not-found code means the schema is missing; any other answer but 200 means the registry did not.
 * A 200 that is not a schema (malformed, the wrong shape, over maxRegistryAnswerBytes, references
 * that loop or go too deep or too wide, or whose texts add up past maxSchemaBytes) is
 * SchemaUnusableError: the records naming it fail with DESERIALIZATION_ERROR, the trigger goes on.
 */
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { AnswerTooLarge, httpGet, type HttpSettings } from './http-get.ts';
import { RegistryUnavailableError, SchemaNotFoundError, SchemaUnusableError, type DataFormat, type RegisteredSchema, type SchemaRegistry, type SchemaReference } from './registry.ts';

interface Reference {
  name: string;
  subject: string;
  version: number;
}

interface SchemaAnswer {
  schema: string;
  schemaType?: string;
  references: Reference[];
}

/** The bounds counted while a schema's references are fetched, so that none is fetched past them. */
export interface ReferenceBounds {
  maxReferenceDepth: number;
  maxReferences: number;
  maxSchemaBytes: number;
}

export function confluentRegistry(uri: string, http: HttpSettings, bounds: ReferenceBounds = INPUT_BOUNDS): SchemaRegistry {
  const base = new URL(uri.endsWith('/') ? uri : `${uri}/`);
  const get = async (path: string, schemaId: string): Promise<SchemaAnswer> => {
    const url = new URL(path, base);
    let answer;
    try {
      answer = await httpGet(url, http);
    } catch (e) {
      if (e instanceof AnswerTooLarge) throw new SchemaUnusableError(schemaId, uri, `GET ${url.pathname}: ${e.message}`);
      throw new RegistryUnavailableError(uri, `GET ${url.pathname}: ${(e as Error).message}`, e);
    }
    if (answer.status === 404 && NOT_FOUND_CODES.has(errorCode(answer.body))) throw new SchemaNotFoundError(schemaId, uri, `GET ${url.pathname} answered 404 ${errorMessage(answer.body)}`);
    if (answer.status === 404) {
      // A 404 without the registry's own "not found" code is a wrong URL, not a missing schema: nothing may be sent on because of it.
      throw new RegistryUnavailableError(uri, `GET ${url.pathname} answered 404 without a registry error code ${errorMessage(answer.body)}: is schemaRegistryUri the registry's API base (e.g. http://127.0.0.1:28081/apis/ccompat/v7 for Apicurio)?`);
    }
    if (answer.status !== 200) throw new RegistryUnavailableError(uri, `GET ${url.pathname} answered ${answer.status} ${errorMessage(answer.body)}`);
    const parsed = schemaAnswer(answer.body);
    // The registry answered, with something that is not a schema: the records that name it fail, the trigger goes on.
    if (typeof parsed === 'string') throw new SchemaUnusableError(schemaId, uri, `GET ${url.pathname} answered 200 with a body that is not a schema: ${parsed}`);
    return parsed;
  };
  /**
   * A schema's references, each subject and version fetched once per lookup however often it is
   * referenced (a fan-out of 2 at depth 32 was 2^33 requests), at most maxReferences of them and
   * maxReferenceDepth deep; a reference back to one being resolved is a cycle. The texts are
   * counted as they arrive, one fetch at a time: once they pass maxSchemaBytes (which
   * compile-bounds.ts would refuse), no further reference is fetched (100 references of 4 MiB
   * were 400 MiB held before the refusal).
   */
  const resolveAll = async (root: SchemaAnswer, schemaId: string): Promise<RegisteredSchema> => {
    const fetched = new Map<string, Promise<SchemaAnswer>>();
    const resolved = new Map<string, Promise<RegisteredSchema>>();
    let bytes = 0;
    const resolve = async (answer: SchemaAnswer, depth: number, path: readonly string[]): Promise<RegisteredSchema> => {
      if (depth > bounds.maxReferenceDepth) throw new SchemaUnusableError(schemaId, uri, `its references nest deeper than ${bounds.maxReferenceDepth} (maxReferenceDepth)`);
      bytes += Buffer.byteLength(answer.schema);
      if (bytes > bounds.maxSchemaBytes) {
        throw new SchemaUnusableError(schemaId, uri, `its text${fetched.size > 0 ? ` with the ${fetched.size} references fetched so far` : ''} is ${bytes} bytes, more than ${bounds.maxSchemaBytes} (maxSchemaBytes)`);
      }
      const references: SchemaReference[] = [];
      for (const ref of answer.references) {
        const key = `${ref.subject}@${ref.version}`;
        if (path.includes(key)) throw new SchemaUnusableError(schemaId, uri, `its references loop: ${[...path, key].join(' -> ')}`);
        if (!fetched.has(key) && fetched.size >= bounds.maxReferences) throw new SchemaUnusableError(schemaId, uri, `it references more than ${bounds.maxReferences} schemas (maxReferences)`);
        let answerOf = fetched.get(key);
        if (!answerOf) fetched.set(key, (answerOf = get(`subjects/${encodeURIComponent(ref.subject)}/versions/${ref.version}`, schemaId)));
        let schema = resolved.get(key);
        if (!schema) resolved.set(key, (schema = answerOf.then((a) => resolve(a, depth + 1, [...path, key]))));
        references.push({ name: ref.name, schema: await schema });
      }
      return { format: dataFormat(answer.schemaType), definition: answer.schema, references };
    };
    return resolve(root, 0, []);
  };
  return {
    uri,
    kind: 'confluent',
    async lookup(schemaId) {
      return resolveAll(await get(`schemas/ids/${encodeURIComponent(schemaId)}`, schemaId), schemaId);
    },
  };
}

/** The answer's shape checked, or what is wrong with it. */
function schemaAnswer(body: string): SchemaAnswer | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    return (e as Error).message;
  }
  if (typeof parsed !== 'object' || parsed === null) return 'not a JSON object';
  const { schema, schemaType, references } = parsed as Record<string, unknown>;
  if (typeof schema !== 'string') return 'no "schema" string in the answer';
  if (schemaType !== undefined && typeof schemaType !== 'string') return '"schemaType" is not a string';
  if (references !== undefined && !Array.isArray(references)) return '"references" is not a list';
  const refs = (references ?? []) as unknown[];
  for (const r of refs) {
    const { name, subject, version } = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof subject !== 'string' || !Number.isSafeInteger(version)) return 'a reference is not {name, subject, version}';
  }
  return { schema, ...(typeof schemaType === 'string' ? { schemaType } : {}), references: refs as Reference[] };
}

function dataFormat(schemaType: string | undefined): DataFormat {
  switch ((schemaType ?? 'AVRO').toUpperCase()) {
    case 'PROTOBUF':
      return 'PROTOBUF';
    case 'JSON':
      return 'JSON';
    default:
      return 'AVRO';
  }
}

/** The Confluent API's codes for a missing subject (40401), version (40402) or schema (40403). */
const NOT_FOUND_CODES: ReadonlySet<number | undefined> = new Set([40401, 40402, 40403]);

function errorCode(body: string): number | undefined {
  try {
    const code = (JSON.parse(body) as { error_code?: unknown }).error_code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

function errorMessage(body: string): string {
  try {
    const { message, error_code } = JSON.parse(body) as { message?: string; error_code?: number };
    if (message) return `(${error_code ?? ''} ${message})`.replace('( ', '(');
  } catch {
    // Not JSON: show the start of it.
  }
  return body ? `(${body.slice(0, 200)})` : '';
}
