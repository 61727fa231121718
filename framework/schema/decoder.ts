/**
 * A trigger's records through its schema registry, before filtering and chunking, as AWS's
 * Kafka trigger does it ("How Lambda performs schema validation"): each selected attribute
 * (KEY, VALUE) is read from the registry's frame, its schema looked up by id (once per id),
 * decoded and so validated; then the event delivers it as JSON text (`JSON`) or as the payload
 * without the registry's header (`SOURCE`), with `<attribute>SchemaMetadata` beside it. Filter
 * patterns see the decoded value in both formats.
 *
 * A record whose schema the registry does not have is SCHEMA_NOT_FOUND; one that does not
 * decode is DESERIALIZATION_ERROR. A registry that cannot answer throws RegistryUnavailableError:
 * the caller holds the whole batch back and fetches it again later. A null key or value (a
 * tombstone) passes through undecoded.
 */
import { inflateSync } from 'node:zlib';
import type { KafkaRecord, SchemaMetadata } from '../event/record.ts';
import type { SchemaFailureReason } from '../failure/policy.ts';
import { compileCodec, type Codec } from './codec.ts';
import { DecodeError } from './decode-error.ts';
import { SchemaNotFoundError, type SchemaRegistry } from './registry.ts';
import { FrameError, readFrame } from './wire.ts';

export type EventRecordFormat = 'JSON' | 'SOURCE';

export interface DecoderOptions {
  registry: SchemaRegistry;
  format: EventRecordFormat;
  key: boolean;
  value: boolean;
  /** The trigger filters: keep the decoded value's JSON text for the patterns. */
  filters: boolean;
}

export type Decoded =
  | { ok: true; record: KafkaRecord }
  | { ok: false; record: KafkaRecord; reason: SchemaFailureReason; error: string };

interface Compiled {
  codec: Codec;
  metadata: SchemaMetadata;
}

class RecordFailure extends Error {
  constructor(
    readonly reason: SchemaFailureReason,
    message: string,
  ) {
    super(message);
  }
}

export class RecordDecoder {
  private readonly compiled = new Map<string, Compiled>();

  constructor(private readonly o: DecoderOptions) {}

  /** One outcome per record, in order; throws RegistryUnavailableError when the registry did not answer. */
  async decode(records: readonly KafkaRecord[]): Promise<Decoded[]> {
    const out: Decoded[] = [];
    for (const record of records) {
      try {
        out.push({ ok: true, record: await this.decodeRecord(record) });
      } catch (e) {
        if (!(e instanceof RecordFailure)) throw e;
        out.push({ ok: false, record, reason: e.reason, error: e.message });
      }
    }
    return out;
  }

  private async decodeRecord(record: KafkaRecord): Promise<KafkaRecord> {
    const key = this.o.key && record.key !== null ? await this.attribute('key', record.key) : undefined;
    const value = this.o.value && record.value !== null ? await this.attribute('value', record.value) : undefined;
    if (!key && !value) return record;
    const out: KafkaRecord = { ...record, received: { key: record.key, value: record.value } };
    if (key) {
      out.key = key.bytes;
      out.keySchemaMetadata = key.metadata;
    }
    if (value) {
      out.value = value.bytes;
      out.valueSchemaMetadata = value.metadata;
      if (value.json) out.filterValue = value.json;
    }
    return out;
  }

  private async attribute(which: 'key' | 'value', bytes: Buffer): Promise<{ bytes: Buffer; metadata: SchemaMetadata; json?: Buffer }> {
    const kind = this.o.registry.kind;
    const fail = (reason: SchemaFailureReason, detail: string) => new RecordFailure(reason, `the record's ${which}: ${detail}`);
    let frame;
    try {
      frame = readFrame(kind, bytes);
    } catch (e) {
      if (e instanceof FrameError) throw fail('DESERIALIZATION_ERROR', e.message);
      throw e;
    }
    const { codec, metadata } = await this.schema(frame.schemaId, (detail) => fail('SCHEMA_NOT_FOUND', detail), (detail) => fail('DESERIALIZATION_ERROR', detail));
    let payload = frame.payload;
    if (frame.compressed) {
      try {
        payload = inflateSync(payload);
      } catch (e) {
        throw fail('DESERIALIZATION_ERROR', `the zlib-compressed payload does not inflate: ${(e as Error).message}`);
      }
    }
    let decoded: unknown;
    try {
      decoded = codec.decode(payload);
    } catch (e) {
      if (e instanceof DecodeError) throw fail('DESERIALIZATION_ERROR', `${e.message} (schema ${frame.schemaId})`);
      throw e;
    }
    if (this.o.format === 'JSON') return { bytes: Buffer.from(codec.toJson(decoded)), metadata };
    const json = which === 'value' && this.o.filters ? Buffer.from(codec.toJson(decoded)) : undefined;
    return { bytes: payload, metadata, ...(json ? { json } : {}) };
  }

  private async schema(schemaId: string, notFound: (d: string) => Error, undecodable: (d: string) => Error): Promise<Compiled> {
    const known = this.compiled.get(schemaId);
    if (known) return known;
    let schema;
    try {
      schema = await this.o.registry.lookup(schemaId);
    } catch (e) {
      if (e instanceof SchemaNotFoundError) throw notFound(e.message);
      throw e;
    }
    let codec: Codec;
    try {
      codec = compileCodec(schema, this.o.registry.kind);
    } catch (e) {
      if (e instanceof DecodeError) throw undecodable(`${e.message} (schema ${schemaId})`);
      throw e;
    }
    const compiled = { codec, metadata: { dataFormat: schema.format, schemaId } };
    this.compiled.set(schemaId, compiled);
    return compiled;
  }
}
