/**
 * A registered schema compiled once into what the decoder needs: `decode` turns the payload
 * (the bytes after the registry's header) into the value, or throws DecodeError; `toJson`
 * renders a decoded value as the JSON text the `JSON` event format delivers.
 */
import { avroCodec } from './avro-codec.ts';
import { tooCostlyToCompile } from './compile-bounds.ts';
import { DecodeError } from './decode-error.ts';
import { jsonSchemaCodec } from './json-schema-codec.ts';
import { protobufCodec } from './protobuf-codec.ts';
import type { RegisteredSchema } from './registry.ts';
import type { RegistryKind } from './wire.ts';

export interface Codec {
  decode(payload: Buffer): unknown;
  toJson(value: unknown): string;
  /**
   * The payload a registry serializer writes for `value` (parsed from the JSON `text`), for
   * `produce --subject`: Avro binary, the JSON text itself once valid, or Protobuf with its
   * message indexes (`message`: a full or partial name; default the file's first message).
   * Throws EncodeError naming what does not fit the schema.
   */
  encode(value: unknown, text: string, message?: string): Buffer;
}

/** Throws DecodeError when the schema itself cannot be compiled, or is past what compiling may cost (the record cannot be decoded with it). */
export function compileCodec(schema: RegisteredSchema, registry: RegistryKind): Codec {
  const tooCostly = tooCostlyToCompile(schema);
  if (tooCostly) throw new DecodeError(`the registered ${schema.format} schema is not compiled: ${tooCostly}`);
  try {
    switch (schema.format) {
      case 'AVRO':
        return avroCodec(schema);
      case 'PROTOBUF':
        return protobufCodec(schema, registry);
      case 'JSON':
        return jsonSchemaCodec(schema);
    }
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    throw new DecodeError(`the registered ${schema.format} schema does not compile: ${(e as Error).message}`);
  }
}
