/**
 * A Confluent-compatible registry over its REST API (Confluent Schema Registry, Apicurio's
 * /apis/ccompat/v7, Karapace, Redpanda): `GET /schemas/ids/{id}` for a record's schema, and
 * `GET /subjects/{subject}/versions/{version}` for each schema it references, recursively.
 * The schema type is absent for Avro, as the API writes it. Only a 404 carrying the API's own
 * not-found code means the schema is missing; any other answer but 200 means the registry did not.
 */
import { httpGet, type HttpSettings } from './http-get.ts';
import { RegistryUnavailableError, SchemaNotFoundError, type DataFormat, type RegisteredSchema, type SchemaRegistry, type SchemaReference } from './registry.ts';

interface SchemaAnswer {
  schema: string;
  schemaType?: string;
  references?: Array<{ name: string; subject: string; version: number }>;
}

/** References deeper than this are a cycle or a mistake, not a schema. */
const MAX_REFERENCE_DEPTH = 32;

export function confluentRegistry(uri: string, http: HttpSettings): SchemaRegistry {
  const base = new URL(uri.endsWith('/') ? uri : `${uri}/`);
  const get = async (path: string, schemaId: string): Promise<SchemaAnswer> => {
    const url = new URL(path, base);
    let answer;
    try {
      answer = await httpGet(url, http);
    } catch (e) {
      throw new RegistryUnavailableError(uri, `GET ${url.pathname}: ${(e as Error).message}`, e);
    }
    if (answer.status === 404 && NOT_FOUND_CODES.has(errorCode(answer.body))) throw new SchemaNotFoundError(schemaId, uri, `GET ${url.pathname} answered 404 ${errorMessage(answer.body)}`);
    if (answer.status === 404) {
      // A 404 without the registry's own "not found" code is a wrong URL, not a missing schema: nothing may be sent on because of it.
      throw new RegistryUnavailableError(uri, `GET ${url.pathname} answered 404 without a registry error code ${errorMessage(answer.body)}: is schemaRegistryUri the registry's API base (e.g. http://127.0.0.1:28081/apis/ccompat/v7 for Apicurio)?`);
    }
    if (answer.status !== 200) throw new RegistryUnavailableError(uri, `GET ${url.pathname} answered ${answer.status} ${errorMessage(answer.body)}`);
    try {
      const parsed = JSON.parse(answer.body) as SchemaAnswer;
      if (typeof parsed.schema !== 'string') throw new Error('no "schema" string in the answer');
      return parsed;
    } catch (e) {
      throw new RegistryUnavailableError(uri, `GET ${url.pathname} answered 200 with a body that is not a schema: ${(e as Error).message}`, e);
    }
  };
  const resolve = async (answer: SchemaAnswer, schemaId: string, depth: number): Promise<RegisteredSchema> => {
    if (depth > MAX_REFERENCE_DEPTH) throw new SchemaNotFoundError(schemaId, uri, `its references nest deeper than ${MAX_REFERENCE_DEPTH}`);
    const references: SchemaReference[] = [];
    for (const ref of answer.references ?? []) {
      const referenced = await get(`subjects/${encodeURIComponent(ref.subject)}/versions/${ref.version}`, schemaId);
      references.push({ name: ref.name, schema: await resolve(referenced, schemaId, depth + 1) });
    }
    return { format: dataFormat(answer.schemaType), definition: answer.schema, references };
  };
  return {
    uri,
    kind: 'confluent',
    async lookup(schemaId) {
      return resolve(await get(`schemas/ids/${encodeURIComponent(schemaId)}`, schemaId), schemaId, 0);
    },
  };
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
