import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { describe, expect, it } from 'vitest';
import { compileCodec } from './codec.ts';
import { DecodeError } from './decode-error.ts';
import type { RegisteredSchema } from './registry.ts';
import type { RegistryKind } from './wire.ts';

const ORDERS = `
syntax = "proto3";
package acme.orders;

import "google/protobuf/timestamp.proto";

message Header {
  string source = 1;
}

message Order {
  enum Status {
    UNKNOWN = 0;
    PAID = 1;
  }
  message Line {
    string sku = 1;
    uint32 qty = 2;
  }
  string order_id = 1;
  int64 total_cents = 2;
  Status status = 3;
  bytes blob = 4;
  int32 item_count = 5;
  repeated Line lines = 6;
  google.protobuf.Timestamp placed_at = 7;
}
`;

/**
 * The producer's side: protobufjs with the field names as written and its own copy of
 * google.protobuf.Timestamp (not the one the codec loads).
 */
function producer(...files: string[]): protobuf.Root {
  const root = new protobuf.Root();
  protobuf.parse('syntax = "proto3"; package google.protobuf; message Timestamp { int64 seconds = 1; int32 nanos = 2; }', root, { keepCase: true });
  for (const file of files) protobuf.parse(file, root, { keepCase: true });
  root.resolveAll();
  return root;
}
const encode = (root: protobuf.Root, type: string, value: object) => {
  const t = root.lookupType(type);
  return Buffer.from(t.encode(t.fromObject(value)).finish());
};
const protoSchema = (definition: string, references: RegisteredSchema['references'] = []): RegisteredSchema => ({ format: 'PROTOBUF', definition, references });
const jsonOf = (schema: RegisteredSchema, registry: RegistryKind, payload: Buffer) => {
  const codec = compileCodec(schema, registry);
  return JSON.parse(codec.toJson(codec.decode(payload))) as unknown;
};
/** A FileDescriptorProto in base64, as Confluent's Python serializer registers a schema. */
const descriptorSchema = (file: object): RegisteredSchema => {
  const type = (descriptor as unknown as { FileDescriptorProto: protobuf.Type }).FileDescriptorProto;
  return protoSchema(Buffer.from(type.encode(type.fromObject(file)).finish()).toString('base64'));
};
/** An unsigned varint (Glue's message index). */
const uvarint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...uvarint(n >>> 7)]);

describe('Protobuf codec: Confluent message indexes', () => {
  const root = producer(ORDERS);

  it('decodes the first message for the single index byte 0', () => {
    const payload = Buffer.concat([Buffer.from([0]), encode(root, 'acme.orders.Header', { source: 'pos' })]);
    expect(jsonOf(protoSchema(ORDERS), 'confluent', payload)).toEqual({ source: 'pos' });
  });

  it('selects the second top-level message with [1] and a nested one with [1, 0]', () => {
    const order = Buffer.concat([Buffer.from([0x02, 0x02]), encode(root, 'acme.orders.Order', { order_id: 'o-1' })]);
    expect(jsonOf(protoSchema(ORDERS), 'confluent', order)).toEqual({ orderId: 'o-1' });
    const line = Buffer.concat([Buffer.from([0x04, 0x02, 0x00]), encode(root, 'acme.orders.Order.Line', { sku: 'A-1', qty: 3 })]);
    expect(jsonOf(protoSchema(ORDERS), 'confluent', line)).toEqual({ sku: 'A-1', qty: 3 });
  });

  it('renders proto3 JSON: lowerCamelCase names, int64 as text, enums by name, bytes as base64, defaults left out', () => {
    const payload = Buffer.concat([
      Buffer.from([0x02, 0x02]),
      encode(root, 'acme.orders.Order', { order_id: 'o-2', total_cents: '1152921504606846977', status: 'PAID', blob: Buffer.from([0, 1, 255]), lines: [{ sku: 'B', qty: 0 }] }),
    ]);
    expect(jsonOf(protoSchema(ORDERS), 'confluent', payload)).toEqual({
      orderId: 'o-2',
      totalCents: '1152921504606846977',
      status: 'PAID',
      blob: 'AAH/',
      lines: [{ sku: 'B' }],
    });
    // Zero, the default enum value, empty bytes and an empty list are not on the wire and not in the JSON.
    const defaults = Buffer.concat([Buffer.from([0x02, 0x02]), encode(root, 'acme.orders.Order', { order_id: '', total_cents: 0, status: 'UNKNOWN', item_count: 0, lines: [] })]);
    expect(jsonOf(protoSchema(ORDERS), 'confluent', defaults)).toEqual({});
  });

  it('resolves an import of google/protobuf/timestamp.proto', () => {
    const payload = Buffer.concat([Buffer.from([0x02, 0x02]), encode(root, 'acme.orders.Order', { order_id: 'o-3', placed_at: { seconds: 1_700_000_000, nanos: 5 } })]);
    // As protobufjs writes a Timestamp (proto3's JSON mapping would write an RFC 3339 string).
    expect(jsonOf(protoSchema(ORDERS), 'confluent', payload)).toEqual({ orderId: 'o-3', placedAt: { seconds: '1700000000', nanos: 5 } });
  });

  it('resolves a type from a referenced file, imported by the reference name', () => {
    const money = 'syntax = "proto3";\npackage acme.common;\nmessage Money {\n  string currency = 1;\n  int64 units = 2;\n}\n';
    const priced = 'syntax = "proto3";\npackage acme.catalog;\nimport "money.proto";\nmessage Price {\n  string sku = 1;\n  acme.common.Money amount = 2;\n}\n';
    const payload = Buffer.concat([Buffer.from([0]), encode(producer(money, priced), 'acme.catalog.Price', { sku: 'S', amount: { currency: 'EUR', units: 12 } })]);
    const schema = protoSchema(priced, [{ name: 'money.proto', schema: protoSchema(money) }]);
    expect(jsonOf(schema, 'confluent', payload)).toEqual({ sku: 'S', amount: { currency: 'EUR', units: '12' } });
  });

  it('adds a well-known file once when the schema and a reference both import it', () => {
    const common = 'syntax = "proto3";\npackage acme.common;\nimport "google/protobuf/timestamp.proto";\nmessage Audit {\n  google.protobuf.Timestamp at = 1;\n}\n';
    const order = 'syntax = "proto3";\npackage acme.orders;\nimport "google/protobuf/timestamp.proto";\nimport "common.proto";\nmessage Placed {\n  google.protobuf.Timestamp placed_at = 1;\n  acme.common.Audit audit = 2;\n}\n';
    const payload = Buffer.concat([Buffer.from([0]), encode(producer(common, order), 'acme.orders.Placed', { placed_at: { seconds: 5 }, audit: { at: { nanos: 3 } } })]);
    const schema = protoSchema(order, [{ name: 'common.proto', schema: protoSchema(common) }]);
    expect(jsonOf(schema, 'confluent', payload)).toEqual({ placedAt: { seconds: '5' }, audit: { at: { nanos: 3 } } });
  });

  it("uses protobufjs's own copy for a reference named as a well-known file (skip.known.types=false)", () => {
    // The registry holds Google's file as a subject of its own; the schema names it as a reference.
    const timestamp = 'syntax = "proto3";\npackage google.protobuf;\noption java_package = "com.google.protobuf";\nmessage Timestamp {\n  int64 seconds = 1;\n  int32 nanos = 2;\n}\n';
    const event = 'syntax = "proto3";\npackage acme;\nimport "google/protobuf/timestamp.proto";\nmessage Event {\n  google.protobuf.Timestamp at = 1;\n}\n';
    const payload = Buffer.concat([Buffer.from([0]), encode(producer(event), 'acme.Event', { at: { seconds: 9, nanos: 1 } })]);
    const schema = protoSchema(event, [{ name: 'google/protobuf/timestamp.proto', schema: protoSchema(timestamp) }]);
    expect(jsonOf(schema, 'confluent', payload)).toEqual({ at: { seconds: '9', nanos: 1 } });
  });

  it('counts only the file\'s own messages, in declaration order, not a referenced file\'s', () => {
    const other = 'syntax = "proto3";\npackage acme;\nmessage Aaa { string a = 1; }\n';
    const main = 'syntax = "proto3";\npackage acme;\nimport "other.proto";\nmessage Zed { string z = 1; }\nmessage Bee { Aaa a = 1; }\n';
    const root2 = producer(other, main);
    const schema = protoSchema(main, [{ name: 'other.proto', schema: protoSchema(other) }]);
    expect(jsonOf(schema, 'confluent', Buffer.concat([Buffer.from([0]), encode(root2, 'acme.Zed', { z: 'z' })]))).toEqual({ z: 'z' });
    expect(jsonOf(schema, 'confluent', Buffer.concat([Buffer.from([0x02, 0x02]), encode(root2, 'acme.Bee', { a: { a: 'x' } })]))).toEqual({ a: { a: 'x' } });
  });

  it('refuses indexes that name no message, and bytes that are not the message', () => {
    const codec = compileCodec(protoSchema(ORDERS), 'confluent');
    expect(() => codec.decode(Buffer.from([0x02, 0x04]))).toThrow('message index 2 names no message of the schema');
    expect(() => codec.decode(Buffer.from([0x04, 0x00, 0x00]))).toThrow(DecodeError);
    expect(() => codec.decode(Buffer.from([0x02, 0x02, 0x0a, 0x05, 0x61]))).toThrow('the bytes are not Protobuf of the registered schema');
  });

  it('refuses a schema that does not parse, or names a type nothing defines, as a DecodeError', () => {
    expect(() => compileCodec(protoSchema('syntax = "proto3"; message {'), 'confluent')).toThrow(DecodeError);
    expect(() => compileCodec(protoSchema('syntax = "proto3"; import "missing.proto"; message A { missing.B b = 1; }'), 'confluent')).toThrow(
      'the registered PROTOBUF schema does not compile',
    );
  });
});

describe('Protobuf codec: Confluent message indexes and map fields', () => {
  const CART = `syntax = "proto3";
package shop;
message Cart {
  map<string, int32> counts = 1;
  message Item { string sku = 1; }
  message Other { int32 n = 1; }
}
`;
  const shop = producer(CART);
  // As protoc writes the file: the entry type of \`counts\` is a nested_type, where the field is declared.
  const field = (name: string, number: number, type: number, extra: object = {}) => ({ name, number, label: 1, type, jsonName: name, ...extra });
  const cartDescriptor = descriptorSchema({
    name: 'cart.proto',
    package: 'shop',
    syntax: 'proto3',
    messageType: [
      {
        name: 'Cart',
        field: [field('counts', 1, 11, { label: 3, typeName: '.shop.Cart.CountsEntry' })],
        nestedType: [
          { name: 'CountsEntry', field: [field('key', 1, 9), field('value', 2, 5)], options: { mapEntry: true } },
          { name: 'Item', field: [field('sku', 1, 9)] },
          { name: 'Other', field: [field('n', 1, 5)] },
        ],
      },
    ],
  });
  const item = encode(shop, 'shop.Cart.Item', { sku: 'k-1' });
  const other = encode(shop, 'shop.Cart.Other', { n: 7 });

  it("descriptor form: counts the entry types stored in nested_type, as the Python serializer's indexes do", () => {
    // confluent_kafka's _create_index_array: Item is nested_types[1] of Cart, after CountsEntry.
    expect(jsonOf(cartDescriptor, 'confluent', Buffer.concat([Buffer.from([0x04, 0x00, 0x02]), item]))).toEqual({ sku: 'k-1' });
    expect(jsonOf(cartDescriptor, 'confluent', Buffer.concat([Buffer.from([0x04, 0x00, 0x04]), other]))).toEqual({ n: 7 });
    const cart = encode(shop, 'shop.Cart', { counts: { a: 2 } });
    expect(jsonOf(cartDescriptor, 'confluent', Buffer.concat([Buffer.from([0]), cart]))).toEqual({ counts: { a: 2 } });
  });

  it('descriptor form: refuses an index that names the entry type of a map field', () => {
    const codec = compileCodec(cartDescriptor, 'confluent');
    expect(() => codec.decode(Buffer.concat([Buffer.from([0x04, 0x00, 0x00]), item]))).toThrow(DecodeError);
    expect(() => codec.decode(Buffer.concat([Buffer.from([0x04, 0x00, 0x00]), item]))).toThrow('message index 0.0 names shop.Cart.CountsEntry, the entry type of a map field');
    expect(() => codec.decode(Buffer.concat([Buffer.from([0x04, 0x00, 0x06]), item]))).toThrow('message index 0.3 names no message of the schema');
  });

  it(".proto text: counts declared messages only, as the Java serializer's element model does", () => {
    // ProtobufSchema.toMessageIndexes walks MessageElement.getNestedTypes(); a map<> field parsed from text adds no entry there.
    expect(jsonOf(protoSchema(CART), 'confluent', Buffer.concat([Buffer.from([0x04, 0x00, 0x00]), item]))).toEqual({ sku: 'k-1' });
    expect(jsonOf(protoSchema(CART), 'confluent', Buffer.concat([Buffer.from([0x04, 0x00, 0x02]), other]))).toEqual({ n: 7 });
  });
});

describe('Protobuf codec: Glue message index', () => {
  const root = producer(ORDERS);

  it('reads one unsigned varint: the position among all messages, nested ones included, sorted by full name', () => {
    // acme.orders.Header = 0, acme.orders.Order = 1, acme.orders.Order.Line = 2.
    const schema = protoSchema(ORDERS);
    expect(jsonOf(schema, 'glue', Buffer.concat([Buffer.from([0]), encode(root, 'acme.orders.Header', { source: 'h' })]))).toEqual({ source: 'h' });
    expect(jsonOf(schema, 'glue', Buffer.concat([Buffer.from([1]), encode(root, 'acme.orders.Order', { order_id: 'o' })]))).toEqual({ orderId: 'o' });
    expect(jsonOf(schema, 'glue', Buffer.concat([Buffer.from([2]), encode(root, 'acme.orders.Order.Line', { sku: 'l' })]))).toEqual({ sku: 'l' });
    expect(() => compileCodec(schema, 'glue').decode(Buffer.from([3]))).toThrow('message index 3 names no message of the schema (it has 3)');
  });

  it('sorts by name, not declaration order, and reads an index of more than one varint byte', () => {
    const messages = Array.from({ length: 130 }, (_, i) => `message M${String(i).padStart(3, '0')} { int32 n = 1; }`).reverse();
    const file = `syntax = "proto3";\npackage many;\n${messages.join('\n')}\n`;
    const payload = Buffer.concat([Buffer.from(uvarint(129)), encode(producer(file), 'many.M129', { n: 7 })]);
    expect(uvarint(129)).toHaveLength(2);
    expect(jsonOf(protoSchema(file), 'glue', payload)).toEqual({ n: 7 });
  });

  it("counts the map entry types Glue's descriptors hold for map fields", () => {
    // Glue's descriptors: shop.Cart = 0, shop.Cart.AttributesEntry = 1, shop.Cart.Item = 2,
    // shop.Cart.Item.LineCountsEntry = 3, shop.Zebra = 4 (aws-glue-schema-registry MessageIndexFinder).
    const file = `syntax = "proto3";
package shop;
message Cart {
  map<string, string> attributes = 1;
  message Item {
    string sku = 1;
    map<string, int32> line_counts = 2;
  }
  repeated Item items = 2;
}
message Zebra { string stripes = 1; }
`;
    const shop = producer(file);
    const schema = protoSchema(file);
    const cart = encode(shop, 'shop.Cart', { attributes: { gift: 'yes' }, items: [{ sku: 'k', line_counts: { a: 2 } }] });
    expect(jsonOf(schema, 'glue', Buffer.concat([Buffer.from([0]), cart]))).toEqual({ attributes: { gift: 'yes' }, items: [{ sku: 'k', lineCounts: { a: 2 } }] });
    expect(jsonOf(schema, 'glue', Buffer.concat([Buffer.from([2]), encode(shop, 'shop.Cart.Item', { sku: 'i' })]))).toEqual({ sku: 'i' });
    expect(jsonOf(schema, 'glue', Buffer.concat([Buffer.from([4]), encode(shop, 'shop.Zebra', { stripes: '9' })]))).toEqual({ stripes: '9' });
    expect(() => compileCodec(schema, 'glue').decode(Buffer.from([1]))).toThrow(DecodeError);
    // The entry of `b_map` is BMapEntry, which sorts before Bz ('M' < 'z'): Bz is 2.
    const named = 'syntax = "proto3";\npackage p;\nmessage A {\n  map<string, int32> b_map = 1;\n  message Bz { int32 n = 1; }\n}\n';
    expect(jsonOf(protoSchema(named), 'glue', Buffer.concat([Buffer.from([2]), encode(producer(named), 'p.A.Bz', { n: 4 })]))).toEqual({ n: 4 });
    // Confluent's indexes over .proto text count declared messages only: Item is [0, 0].
    expect(jsonOf(schema, 'confluent', Buffer.concat([Buffer.from([0x04, 0x00, 0x00]), encode(shop, 'shop.Cart.Item', { sku: 'c' })]))).toEqual({ sku: 'c' });
  });
});
