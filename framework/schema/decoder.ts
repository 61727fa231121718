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
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import type { KafkaRecord, SchemaMetadata } from '../event/record.ts';
import type { SchemaFailureReason } from '../failure/policy.ts';
import { compileCodec, type Codec } from './codec.ts';
import { BatchInflateBudgetSpent, inflateFrame, isCompressed } from './glue-inflate.ts';
import { DecodeError } from './decode-error.ts';
import { SchemaNotFoundError, SchemaUnusableError, type SchemaRegistry } from './registry.ts';
import { FrameError, readFrame, type Frame } from './wire.ts';

export type EventRecordFormat = 'JSON' | 'SOURCE';

export interface DecoderOptions {
  registry: SchemaRegistry;
  format: EventRecordFormat;
  key: boolean;
  value: boolean;
  /** The trigger filters: keep the decoded value's JSON text for the patterns. */
  filters: boolean;
  /** mayDrop's wait for a schema id the registry does not have (SCHEMA_NOT_FOUND_GRACE_MS). */
  notFoundGraceMs?: number;
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

/** Distinct schemas looked up at once for one batch, at most. */
const PARALLEL_LOOKUPS = 8;
/**
 * Records decoded between two yields to the event loop (heartbeat timers, other partitions), or
 * fewer once this many ms went by: a record may cost up to maxPatternSteps of pattern tests.
 */
const YIELD_EVERY = 500;
const YIELD_AFTER_MS = 50;

/** Why a schema id cannot serve, for one batch (not found) or for good (a schema that does not compile). */
type Unusable = { reason: SchemaFailureReason; detail: string };
/** An attribute to decode: its frame, the reason it has none, or undefined (not selected, or null). */
type Framed = Frame | FrameError | undefined;
const NOTHING = { key: undefined, value: undefined } as const;
const isFrame = (f: Framed): f is Frame => f !== undefined && !(f instanceof FrameError);

/**
 * How long a schema id the registry does not have is asked for again before its records may be
 * skipped (RecordDecoder.mayDrop; SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS sets it for a poller).
 */
export const SCHEMA_NOT_FOUND_GRACE_MS = 5 * 60_000;

export class RecordDecoder {
  private readonly compiled = new Map<string, Compiled>();
  /** A registered schema never changes: one that does not compile never will. */
  private readonly uncompilable = new Map<string, string>();
  /**
   * True once a record's framed key or value decoded with a schema the registry answered: the
   * registry is the one the producers write to. Until then a record it cannot decode may be the
   * trigger's mistake (a wrong schemaRegistryUri), not the record's.
   */
  decodedOne = false;
  /** Schema ids the registry answered with nothing usable, or that Sluice refuses to compile: no record's fault. */
  private readonly refused = new Set<string>();
  /** Schema ids the registry did not have, since when (ms): a schema just registered may not be visible on every node yet. */
  private readonly notFoundSince = new Map<string, number>();

  constructor(private readonly o: DecoderOptions) {}

  /**
   * One outcome per record, in order (a prefix of them when the records' Glue payloads would
   * inflate past what one batch may: the others are fetched again); throws RegistryUnavailableError when the registry did not
   * answer. The batch's schema ids are looked up first, each once and several at a time, so a
   * batch full of records of one unknown id costs one lookup, not one per record.
   */
  async decode(records: readonly KafkaRecord[]): Promise<Decoded[]> {
    // A record that could not be read at all (KafkaRecord.unreadable) is not decoded: it is sent on as it is.
    const framed = records.map((r) => (r.unreadable ? NOTHING : { key: this.o.key ? this.frameOf(r.key) : undefined, value: this.o.value ? this.frameOf(r.value) : undefined }));
    const unusable = await this.lookUp(framed);
    const out: Decoded[] = [];
    const budget = { left: INPUT_BOUNDS.maxDecompressedBytes };
    let since = performance.now();
    for (const [i, record] of records.entries()) {
      if (i > 0 && (i % YIELD_EVERY === 0 || performance.now() - since > YIELD_AFTER_MS)) {
        await new Promise((r) => setImmediate(r));
        since = performance.now();
      }
      const f = framed[i]!;
      if (isCompressed(f.key) || isCompressed(f.value)) {
        try {
          framed[i] = { key: await inflateFrame(f.key, budget), value: await inflateFrame(f.value, budget) };
        } catch (e) {
          // Honest records past what one fetch may inflate: the batch ends here, the rest is fetched again.
          if (e instanceof BatchInflateBudgetSpent && i > 0) return out;
          throw e;
        }
      }
      try {
        out.push({ ok: true, record: this.decodeRecord(record, framed[i]!, unusable) });
        if (isFrame(framed[i]!.key) || isFrame(framed[i]!.value)) this.decodedOne = true;
      } catch (e) {
        // Anything a library throws on a record's bytes is that record's DESERIALIZATION_ERROR, never the member's crash.
        const failure = e instanceof RecordFailure ? e : new RecordFailure('DESERIALIZATION_ERROR', `the record could not be decoded: ${(e as Error).message}`);
        out.push({ ok: false, record, reason: failure.reason, error: failure.message });
      }
    }
    return out;
  }

  /**
   * Whether a record this decoder failed is the record's own fault, so that a trigger without a
   * destination may skip it as AWS drops it: only once the registry has decoded a record of the
   * trigger, never for a schema the registry answered unusably or Sluice refuses to compile (the
   * schema's problem: every record of it would go), and for a schema id the registry does not have
   * only after SCHEMA_NOT_FOUND_GRACE_MS of asking again (a schema just registered may not be on
   * every registry node yet). Bytes that are not the registry's frame, or not their schema's
   * encoding, are the record's.
   */
  mayDrop(record: KafkaRecord, now = Date.now()): boolean {
    if (!this.decodedOne) return false;
    for (const [selected, bytes] of [[this.o.key, record.received?.key ?? record.key], [this.o.value, record.received?.value ?? record.value]] as const) {
      const frame = selected ? this.frameOf(bytes) : undefined;
      if (!isFrame(frame)) continue;
      if (this.refused.has(frame.schemaId)) return false;
      const since = this.notFoundSince.get(frame.schemaId);
      if (since !== undefined && now - since < (this.o.notFoundGraceMs ?? SCHEMA_NOT_FOUND_GRACE_MS)) return false;
    }
    return true;
  }

  /** An attribute's frame, read once per batch; undefined for a null key or value (passed through undecoded). */
  private frameOf(bytes: Buffer | null): Framed {
    if (bytes === null) return undefined;
    try {
      return readFrame(this.o.registry.kind, bytes);
    } catch (e) {
      if (e instanceof FrameError) return e;
      throw e;
    }
  }

  /** Compiles every schema the frames name that is not compiled yet; returns the ids that cannot serve this batch. */
  private async lookUp(framed: ReadonlyArray<{ key: Framed; value: Framed }>): Promise<Map<string, Unusable>> {
    const unusable = new Map<string, Unusable>();
    const wanted = new Set<string>();
    for (const { key, value } of framed) {
      for (const frame of [key, value]) {
        if (!frame || frame instanceof FrameError || this.compiled.has(frame.schemaId)) continue;
        const compileError = this.uncompilable.get(frame.schemaId);
        if (compileError) unusable.set(frame.schemaId, { reason: 'DESERIALIZATION_ERROR', detail: compileError });
        else wanted.add(frame.schemaId);
      }
    }
    const ids = [...wanted];
    for (let at = 0; at < ids.length; at += PARALLEL_LOOKUPS) {
      await Promise.all(ids.slice(at, at + PARALLEL_LOOKUPS).map(async (schemaId) => {
        const failure = await this.compile(schemaId);
        if (failure) unusable.set(schemaId, failure);
      }));
    }
    return unusable;
  }

  private async compile(schemaId: string): Promise<Unusable | undefined> {
    let schema;
    try {
      schema = await this.o.registry.lookup(schemaId);
    } catch (e) {
      if (e instanceof SchemaNotFoundError) {
        if (!this.notFoundSince.has(schemaId)) this.notFoundSince.set(schemaId, Date.now());
        return { reason: 'SCHEMA_NOT_FOUND', detail: e.message };
      }
      // Not remembered as uncompilable: the registry may answer properly next time.
      if (e instanceof SchemaUnusableError) {
        this.refused.add(schemaId);
        return { reason: 'DESERIALIZATION_ERROR', detail: e.message };
      }
      throw e;
    }
    this.notFoundSince.delete(schemaId);
    this.refused.delete(schemaId);
    // One compile at a time between event-loop turns: several lookups may answer in one turn.
    await new Promise((r) => setImmediate(r));
    try {
      this.compiled.set(schemaId, { codec: compileCodec(schema, this.o.registry.kind), metadata: { dataFormat: schema.format, schemaId } });
      return undefined;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const detail = `${e.message} (schema ${schemaId})`;
      this.uncompilable.set(schemaId, detail);
      this.refused.add(schemaId);
      return { reason: 'DESERIALIZATION_ERROR', detail };
    }
  }

  private decodeRecord(record: KafkaRecord, framed: { key: Framed; value: Framed }, unusable: Map<string, Unusable>): KafkaRecord {
    const key = framed.key && this.attribute('key', framed.key, unusable);
    const value = framed.value && this.attribute('value', framed.value, unusable);
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

  private attribute(which: 'key' | 'value', frame: Frame | FrameError, unusable: Map<string, Unusable>): { bytes: Buffer; metadata: SchemaMetadata; json?: Buffer } {
    const fail = (reason: SchemaFailureReason, detail: string) => new RecordFailure(reason, `the record's ${which}: ${detail}`);
    if (frame instanceof FrameError) throw fail('DESERIALIZATION_ERROR', frame.message);
    const cannot = unusable.get(frame.schemaId);
    if (cannot) throw fail(cannot.reason, cannot.detail);
    const { codec, metadata } = this.compiled.get(frame.schemaId)!;
    const payload = frame.payload; // inflated already, when it was compressed (inflateFrame)
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
}
