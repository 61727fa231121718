/** Writing values with a registered schema (produce --subject): what fits is written exactly, what does not is refused, naming it. */
import { describe, expect, it } from 'vitest';
import { parseExact } from '../cli/exact-json.ts';
import { compileCodec } from './codec.ts';
import { EncodeError } from './decode-error.ts';

const avro = (s: object) => compileCodec({ format: 'AVRO', definition: JSON.stringify(s), references: [] }, 'confluent');
const proto = (text: string) => compileCodec({ format: 'PROTOBUF', definition: text, references: [] }, 'confluent');
const write = (c: ReturnType<typeof compileCodec>, text: string, m?: string) => c.encode(parseExact(text), text, m);
const roundTrip = (c: ReturnType<typeof compileCodec>, text: string, m?: string) => c.toJson(c.decode(write(c, text, m)));
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(EncodeError);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('writing Avro', () => {
  const record = avro({ type: 'record', name: 'R', fields: [{ name: 'id', type: 'long' }, { name: 'note', type: ['null', 'string'], default: null }] });

  it('keeps a long past 2^53 exact, given as a number or as the digit string decode renders it; fills defaults', () => {
    expect(roundTrip(record, '{"id":9007199254740993,"note":"x"}')).toBe('{"id":9007199254740993,"note":"x"}');
    expect(roundTrip(record, '{"id":"9007199254740993"}')).toBe('{"id":9007199254740993,"note":null}');
  });

  it('writes a union of two records from its JSON form ({"name": …}), and refuses a value that fits no branch', () => {
    const pay = avro({ type: 'record', name: 'Pay', namespace: 'shop', fields: [{ name: 'method', type: [
      { type: 'record', name: 'Card', fields: [{ name: 'pan', type: 'string' }] },
      { type: 'record', name: 'Bank', fields: [{ name: 'iban', type: 'string' }] }] }] });
    expect(roundTrip(pay, '{"method":{"shop.Bank":{"iban":"DE1"}}}')).toBe('{"method":{"iban":"DE1"}}');
    expect(refusal(() => write(pay, '{"method":{"pan":"4111"}}'))).toContain('does not fit the Avro schema at method');
  });

  it('refuses what does not fit, naming where', () => {
    expect(refusal(() => write(record, '{"id":"abc"}'))).toBe('the value does not fit the Avro schema at id');
  });
});

describe('writing Protobuf', () => {
  const p = proto(`syntax = "proto3"; package shop;
message Customer { int32 id = 1; message Note { string text = 1; } }
message Note { string body = 1; int32 order_id = 2; int64 big = 3; enum Kind { A = 0; B = 1; } Kind kind = 4; repeated string tags = 5; }
message Order { message Note { string x = 1; } }`);

  it('finds --message by full name, then from the top level; a last part that could be several is refused', () => {
    expect(write(p, '{"body":"hi"}', 'shop.Note').subarray(0, 2).toString('hex')).toBe('0202'); // [1]
    expect(write(p, '{"body":"hi"}', 'Note').subarray(0, 2).toString('hex')).toBe('0202');
    expect(write(p, '{"text":"t"}', 'Customer.Note').subarray(0, 3).toString('hex')).toBe('040000'); // [0, 0]
    expect(refusal(() => write(p, '{}', 'Nope'))).toContain('the schema has no message Nope; its messages: shop.Customer, shop.Customer.Note, shop.Note');
    const q = proto('syntax = "proto3"; message A { message X { string s = 1; } } message B { message X { string s = 1; } }');
    expect(refusal(() => write(q, '{}', 'X'))).toBe('--message X could be A.X or B.X: give the full name');
  });

  it("takes a field by its JSON or its .proto name, int64 past 2^53 exact, enums by name; refuses what proto3's JSON mapping does not", () => {
    expect(roundTrip(p, '{"order_id":7,"big":9007199254740993,"kind":"B","tags":["a"]}', 'Note')).toBe('{"orderId":7,"big":"9007199254740993","kind":"B","tags":["a"]}');
    expect(refusal(() => write(p, '{"orderId":"abc"}', 'Note'))).toBe('orderId: "abc" is not a whole number (int32)');
    expect(refusal(() => write(p, '{"extra":1}', 'Note'))).toBe('extra: shop.Note has no such field (its fields: body, orderId, big, kind, tags)');
    expect(refusal(() => write(p, '{"kind":"C"}', 'Note'))).toBe('kind: "C" is not one of A, B');
    expect(refusal(() => write(p, '{"tags":"a"}', 'Note'))).toBe('tags: a repeated field takes a JSON list');
    expect(refusal(() => write(p, '[1]', 'Note'))).toBe('the value: not a JSON object, as shop.Note is');
  });
});
