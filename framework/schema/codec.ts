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
