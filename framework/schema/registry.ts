/**
 * What the decoder needs of a schema registry: the schema a record's id names. Two kinds sit
 * behind it, chosen by `schemaRegistryUri` as AWS chooses: a Glue registry ARN (glue-registry.ts)
 * or the URL of a Confluent-compatible registry (confluent-registry.ts).
 *
 * A lookup ends in one of three ways, and the poller treats each differently:
 * - the schema: decode with it (cached by id: a registered schema never changes);
 * - SchemaNotFoundError: the registry answered, and has no such id (SCHEMA_NOT_FOUND);
 * - anything else (RegistryUnavailableError): the registry could not answer; the partition
 *   waits and asks again, as for a destination that is down. Nothing is dropped or skipped.
 */
import { SluiceError } from '../errors.ts';
import type { RegistryKind } from './wire.ts';

export type DataFormat = 'AVRO' | 'PROTOBUF' | 'JSON';

export interface SchemaReference {
  /** As the referencing schema names it: a Protobuf import path, an Avro full name, a JSON Schema $ref URL. */
  name: string;
  schema: RegisteredSchema;
}

export interface RegisteredSchema {
  format: DataFormat;
  /** The schema text as registered (.proto source, Avro JSON, JSON Schema). */
  definition: string;
  references: SchemaReference[];
}

export interface SchemaRegistry {
  /** For messages: the URL or ARN. */
  readonly uri: string;
  readonly kind: RegistryKind;
  lookup(schemaId: string): Promise<RegisteredSchema>;
}

export class SchemaNotFoundError extends SluiceError {
  constructor(readonly schemaId: string, uri: string, detail: string) {
    super('SCHEMA_NOT_FOUND', `schema ${schemaId} is not in the registry ${uri}: ${detail}`);
    this.name = 'SchemaNotFoundError';
  }
}

/** The registry answered for the schema with something that is not a usable schema (README, "Bounds on hostile input"). */
export class SchemaUnusableError extends SluiceError {
  constructor(readonly schemaId: string, uri: string, detail: string) {
    super('SCHEMA_UNUSABLE', `schema ${schemaId} from the registry ${uri} cannot be used: ${detail}`);
    this.name = 'SchemaUnusableError';
  }
}

export class RegistryUnavailableError extends SluiceError {
  constructor(uri: string, detail: string, cause?: unknown) {
    super('SCHEMA_REGISTRY_UNAVAILABLE', `the schema registry ${uri} did not answer: ${detail}`, { retriable: true, cause });
    this.name = 'RegistryUnavailableError';
  }
}

/** Looks each id up once; concurrent lookups of one id share a request. A failed lookup is not kept. */
export function cachedRegistry(registry: SchemaRegistry): SchemaRegistry {
  const known = new Map<string, Promise<RegisteredSchema>>();
  return {
    uri: registry.uri,
    kind: registry.kind,
    lookup(schemaId) {
      let pending = known.get(schemaId);
      if (!pending) {
        pending = registry.lookup(schemaId);
        known.set(schemaId, pending);
        pending.catch(() => known.delete(schemaId));
      }
      return pending;
    },
  };
}
