/**
 * `produce --subject`: values written as a producer with a registry serializer writes them, so a
 * trigger with schemaRegistryConfig decodes them: the subject's latest schema from a
 * Confluent-compatible registry, each value (JSON) encoded with it (Avro binary, the JSON text
 * once valid, Protobuf with its message indexes) behind magic byte 0 and the schema id. A value
 * sent as plain JSON to such a trigger lands in its destination as a DESERIALIZATION_ERROR.
 */
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { UsageError } from '../errors.ts';
import type { OutgoingRecord } from '../kafka/producer-port.ts';
import { compileCodec } from '../schema/codec.ts';
import { confluentRegistry } from '../schema/confluent-registry.ts';
import { EncodeError } from '../schema/decode-error.ts';
import { httpGet, type HttpSettings } from '../schema/http-get.ts';
import { confluentFrame } from '../schema/wire.ts';
import { parseExact } from './exact-json.ts';

/** Basic auth given in the URL (http://user:password@host/…) as the request's header. */
function withUrlCredentials(http: HttpSettings, url: URL): HttpSettings {
  if (!url.username || http.basicAuth) return http;
  return { ...http, basicAuth: { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } };
}

export interface SchemaFraming {
  /** The registry's API base, e.g. http://127.0.0.1:28081/apis/ccompat/v7 for the local one. */
  registry: string;
  subject: string;
  /** Protobuf: the message type (default the file's first). */
  message?: string | undefined;
  /** How to ask it: a trigger's credentials (its accessConfigs); default none. */
  http?: HttpSettings | undefined;
}

/** A registry URL as it may be shown: without the user and password it may carry. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

/** The local registry `start` runs for a trigger that names it (local-registry.ts). */
export function localRegistryUrl(env: Record<string, string | undefined> = process.env): string {
  return `http://127.0.0.1:${env['SLUICE_REGISTRY_PORT'] ?? 28081}/apis/ccompat/v7`;
}

const HTTP: HttpSettings = { timeoutMs: INPUT_BOUNDS.registryRequestDeadlineMs, maxBodyBytes: INPUT_BOUNDS.maxRegistryAnswerBytes };

export async function framedRecords(records: OutgoingRecord[], f: SchemaFraming): Promise<{ records: OutgoingRecord[]; schemaId: number; format: string }> {
  if (f.registry.startsWith('arn:')) throw new UsageError('--subject: Glue registries are not supported for writing; give a Confluent-compatible registry (--registry <url>).');
  const shown = shownUrl(f.registry);
  const base = new URL(f.registry.endsWith('/') ? f.registry : `${f.registry}/`);
  const http = withUrlCredentials(f.http ?? HTTP, base);
  const url = new URL(`subjects/${encodeURIComponent(f.subject)}/versions/latest`, base);
  let answer;
  try {
    answer = await httpGet(url, http);
  } catch (e) {
    throw new UsageError(`The schema registry at ${shown} did not answer (${(e as Error).message}). Start it (the local one runs with start for a trigger that names it), or give --registry.`);
  }
  if (answer.status === 404) {
    throw new UsageError(`Subject "${f.subject}" has no schema in the registry at ${shown}. Register one first (a producer with a registry serializer does; or POST {"schema": …} to ${shownUrl(url.href).replace(/\/latest$/, '')}), or name another --subject.`);
  }
  if (answer.status !== 200) throw new UsageError(`The schema registry at ${shown} answered ${answer.status} for ${url.pathname}: ${answer.body.slice(0, 200)}`);
  const id = (JSON.parse(answer.body) as { id?: unknown }).id;
  if (!Number.isSafeInteger(id)) throw new UsageError(`The schema registry at ${shown} answered ${url.pathname} without a schema id: ${answer.body.slice(0, 200)}`);
  const schemaId = id as number;
  const schema = await confluentRegistry(f.registry, http).lookup(String(schemaId));
  if (f.message !== undefined && schema.format !== 'PROTOBUF') throw new UsageError(`--message is for Protobuf schemas; subject ${f.subject}'s is ${schema.format}: leave --message out.`);
  const codec = compileCodec(schema, 'confluent');
  const out = records.map((r, i) => {
    // A tombstone stays one: serializers pass null through.
    if (r.value === null) return r;
    const text = typeof r.value === 'string' ? r.value : r.value.toString('utf8');
    let value: unknown;
    try {
      // Avro longs and Protobuf int64s past 2^53 keep their exact value; JSON Schema validates JSON as JavaScript reads it.
      value = schema.format === 'JSON' ? JSON.parse(text) : parseExact(text);
    } catch {
      throw new UsageError(`record ${i + 1}: ${JSON.stringify(text.slice(0, 60))} is not JSON; with --subject each value is JSON that ${schema.format} encodes.`);
    }
    try {
      return { ...r, value: confluentFrame(schemaId, codec.encode(value, text, f.message)) };
    } catch (e) {
      if (e instanceof EncodeError) throw new UsageError(`record ${i + 1}: ${e.message} (subject ${f.subject}, schema id ${schemaId}).`);
      throw e;
    }
  });
  return { records: out, schemaId, format: schema.format };
}

/**
 * The records as given, or framed when --subject is: the registry is --registry, else the one of a
 * trigger on the topic (the Serverless door knows the service), else SCHEMA_REGISTRY_URL, else the local one.
 */
export async function maybeFramed(
  records: OutgoingRecord[], o: { subject?: string | undefined; registry?: string | undefined; message?: string | undefined }, note: (line: string) => void,
  trigger?: { uri: string; http: () => Promise<HttpSettings> },
): Promise<OutgoingRecord[]> {
  if (o.subject === undefined) {
    if (o.registry !== undefined || o.message !== undefined) throw new UsageError(`--${o.registry !== undefined ? 'registry' : 'message'} goes with --subject: name the subject whose schema writes the values.`);
    return records;
  }
  const registry = o.registry ?? trigger?.uri ?? process.env['SCHEMA_REGISTRY_URL'] ?? localRegistryUrl();
  // The trigger's registry with the trigger's credentials (its accessConfigs' secrets).
  const http = o.registry === undefined && trigger ? await trigger.http() : undefined;
  const framed = await framedRecords(records, { registry, subject: o.subject, message: o.message, http });
  note(`writing ${records.length} value${records.length === 1 ? '' : 's'} with schema ${framed.schemaId} (${framed.format}) of subject ${o.subject} from ${shownUrl(registry)}`);
  return framed.records;
}
