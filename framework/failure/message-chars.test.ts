/**
 * A failure document for SQS or SNS holds only characters SQS takes, whatever the record carried,
 * and parses back to the record's own strings (a header name or error text quoting U+FFFF made every
 * send of its record refused, and the partition waited on it for ever).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureDocument, type FailedRecord } from './failed-record.ts';

/** SQS's message body characters (XML 1.0's), by code point: a lone surrogate is outside them. */
const allowed = (cp: number) => cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
const refused = (text: string) => [...text].map((c) => c.codePointAt(0)!).filter((cp) => !allowed(cp)).map((cp) => `U+${cp.toString(16).toUpperCase()}`);

const HOSTILE = 'a\uFFFF b\uFFFE c\u0000 d\u001B e\uD800 f\uDFFF g\uDBFF\uDFFF h\u{1F600} i\u2028';

const failed = (name: string, error: string, key: Buffer): FailedRecord => ({
  record: { topic: 'orders', partition: 3, offset: 7, timestamp: 0, timestampType: 'CREATE_TIME', key, value: Buffer.from('v'), headers: [[name, Buffer.from('x')]] },
  reason: 'RetryAttemptsExhausted', attempts: 2, error, functionName: 'f', consumerGroupId: 'g', at: 0,
});

interface Doc {
  requestContext: { errorMessage: string };
  record?: { key: string; headers: Array<Record<string, number[]>> };
}

describe('failureDocument: characters SQS and SNS take', () => {
  it('escapes U+FFFF, U+FFFE, NUL and lone surrogates in a header name, an error text and the key, and parses back to the same strings', () => {
    const error = `the value ${HOSTILE} is not an order`;
    for (const max of [256 * 1024, 400]) {
      const text = failureDocument(failed(HOSTILE, error, Buffer.from(HOSTILE)), max);
      expect(refused(text)).toEqual([]);
      const doc = JSON.parse(text) as Doc;
      expect(doc.requestContext.errorMessage).toBe(error);
      if (max === 400) continue; // the record does not fit: left out
      expect(Object.keys(doc.record!.headers[0]!)).toEqual([HOSTILE]);
      expect(Buffer.from(doc.record!.key, 'base64').toString()).toBe(Buffer.from(HOSTILE).toString());
    }
  });

  it('any string: only allowed characters, the same value once parsed, and the size limit still holds', () => {
    const codePoint = fc.oneof(fc.integer({ min: 0, max: 0x10ffff }), fc.constantFrom(0xfffe, 0xffff, 0, 0xd800, 0xdc00, 0x1f600));
    const text = fc.array(codePoint, { maxLength: 40 }).map((cps) => cps.map((cp) => String.fromCodePoint(cp)).join(''));
    fc.assert(
      fc.property(text, text, (name, quoted) => {
        const error = `failed: ${quoted}`; // an empty error is left out
        const doc = failureDocument(failed(name, error, Buffer.from(name)), 1_000);
        expect(refused(doc)).toEqual([]);
        expect(Buffer.byteLength(doc)).toBeLessThanOrEqual(1_000);
        const parsed = JSON.parse(doc) as Doc;
        expect(parsed.requestContext.errorMessage).toBe(error.slice(0, 1_000));
        if (parsed.record) expect(Object.keys(parsed.record.headers[0]!)).toEqual([name]);
      }),
      { numRuns: 500 },
    );
  });
});
