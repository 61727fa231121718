/**
 * The bounds on what one record, one record batch and one schema-registry answer may cost the
 * poller (README, "Bounds on hostile input"). Anyone who can write to a consumed topic, or answer
 * for its registry, chooses these inputs: past a bound, a record becomes that record's failure
 * (sent through the failure policy), a registry answer a lookup failure, never a stopped trigger.
 * Each default is far above what a legitimate record needs and far below what stalls a poller.
 */
export const INPUT_BOUNDS = {
  /** Headers on one record. Tracing and routing use a handful; kafkajs decodes each into an object. */
  maxHeaders: 1_000,
  /** Bytes of header names and values on one record: each byte is 2–4 characters of the event's JSON. */
  maxHeaderBytes: 256 * 1024,
  /**
   * Decompressed bytes of one record batch (gzip, snappy, lz4, zstd) and of one Glue-compressed
   * record. A batch is at most the topic's max.message.bytes (1 MiB by default) compressed; 32 MiB
   * is a ratio of 32, above what JSON or logs reach; a bomb's ratio is in the thousands.
   */
  maxDecompressedBytes: 32 * 1024 * 1024,
  /** Nesting of a JSON value that filter patterns are evaluated on (AWS's own filters stop far shallower). */
  maxFilterJsonDepth: 256,
  /**
   * Bytes of the value filter patterns are evaluated on (the record's value, or the JSON its schema
   * decodes to), checked before it is parsed. 6 MiB, Lambda's payload: no larger value can be invoked,
   * and parsing costs about 0.3 s and 18 MiB of heap a MiB on the poller's thread (31 MiB of small
   * objects: 11 s, 573 MiB; 6 MiB: 1.8 s, 111 MiB).
   */
  maxFilterValueBytes: 6 * 1024 * 1024,
  /**
   * Items of arrays and entries of maps decoded from one Avro record, summed, each charged before it
   * is read: an item can take no bytes (`null`, a record without fields), so a 5-byte payload can
   * declare 2^32-1. A million is 1 MiB of one-byte items; a million records without fields, the
   * costliest items, decode in 0.6 to 2 s and about 130 MiB (20 million took 31 s and 2.1 GiB).
   */
  maxAvroItems: 1_000_000,
  /** Bytes of one schema-registry answer (a large Protobuf file set is tens of KB). */
  maxRegistryAnswerBytes: 4 * 1024 * 1024,
  /** One registry request, connection to last byte (an idle timeout alone lets a registry trickle). */
  registryRequestDeadlineMs: 10_000,
  /** Depth of a schema's references (a reference of a reference …). */
  maxReferenceDepth: 32,
  /** Distinct referenced schemas one schema may pull in, all levels together. */
  maxReferences: 256,
  /**
   * Bytes of a schema's text with its references' (framework/schema/compile-bounds.ts counts all four);
   * counted too as a registry's references are fetched, so that none is fetched past it.
   */
  maxSchemaBytes: 256 * 1024,
  /** Nodes of a schema with its references: JSON values (JSON Schema, Avro), statements and blocks (.proto). */
  maxSchemaNodes: 3_000,
  /** Nesting of a schema's objects, lists or .proto blocks. */
  maxSchemaDepth: 64,
  /** Members of one object or list, statements of one .proto block: compile time grows with its square. */
  maxSchemaWidth: 500,
  /**
   * What testing one record against its JSON Schema's patterns may cost: characters tested times
   * the pattern's RE2 program size, summed. RE2's slowest case measured about 25 ns a step, so the
   * default is about 1.25 s at worst; a 1 MiB string against a 40-instruction pattern (a UUID's) fits.
   */
  maxPatternSteps: 50_000_000,
  /**
   * RE2 instructions that one schema's patterns compile to, summed, charged as each is compiled (on
   * the poller's thread): a counted repeat expands (`(?:k12){1000}` is about 3,000), and 1,398 such
   * patterns, within every other bound, took 2.8 s. Compiling costs about 1–3 µs an instruction
   * (measured), so 250,000 is well under a second; an ordinary pattern (`^[a-z0-9-]{1,64}$`) is 131.
   */
  maxPatternProgram: 250_000,
} as const;
