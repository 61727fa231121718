/**
 * The hostile tier's inputs, generated with fast-check from a printed seed: each a batch to
 * produce (its codec, its records) and what must become of each record (invoked, filtered out,
 * or sent to the destination with a reason). The trigger filters on `{ value: { keep: [true] } }`.
 */
import fc from 'fast-check';
import type { Fate } from './tier.ts';

export type Codec = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';
export interface HostileRecord {
  value: Buffer | null;
  headers?: Array<[string, Buffer]>;
  fate: Fate;
}
export interface HostileBatch {
  kind: string;
  codec: Codec;
  records: HostileRecord[];
  /** Sent this many times in a row to one partition: as many record batches, one after another in its log (1 when absent). */
  repeat?: number;
}

const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'] as const;
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const keep = (yes: boolean) => Buffer.from(JSON.stringify({ keep: yes }));
const nested = (depth: number) => `{"keep":true,"v":${'['.repeat(depth)}1${']'.repeat(depth)}}`;

const headerName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), fc.constantFrom('sluice-failure-reason', '__proto__'));
const headers = (min: number, max: number) => fc.array(fc.tuple(headerName, fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.from(b))), { minLength: min, maxLength: max });

const batch = (kind: string, codec: Codec, records: HostileRecord[]): HostileBatch => ({ kind, codec, records });

const arbitraries = {
  /** Headers named after Object.prototype's members, random (binary) names, forged sluice-* names: ordinary records. */
  prototypeHeaders: fc.tuple(fc.constantFrom<Codec>('none', ...CODECS), fc.array(fc.tuple(headers(1, 6), fc.boolean()), { minLength: 1, maxLength: 8 }))
    .map(([codec, rs]) => batch('prototype-headers', codec, rs.map(([h, k]) => ({ value: keep(k), headers: h, fate: k ? 'invoked' : 'filtered' })))),
  /** Tens of thousands of headers (over the bound: HeadersOverLimit), or a few hundred (fine). */
  manyHeaders: fc.oneof(fc.integer({ min: 1_001, max: 60_000 }).map((n) => ({ n, fate: 'destination:HeadersOverLimit' as Fate })), fc.integer({ min: 100, max: 900 }).map((n) => ({ n, fate: 'invoked' as Fate })))
    .map(({ n, fate }) => batch('many-headers', 'none', [{ value: keep(true), headers: Array.from({ length: n }, (_, i): [string, Buffer] => [`h${i}`, Buffer.from('x')]), fate }])),
  /** JSON nested past the filter's bound (FilterFailed), or within it (filtered on as usual). */
  deepJson: fc.oneof(fc.integer({ min: 300, max: 20_000 }).map((d) => ({ d, fate: 'destination:FilterFailed' as Fate })), fc.integer({ min: 1, max: 200 }).map((d) => ({ d, fate: 'invoked' as Fate })))
    .map(({ d, fate }) => batch('deep-json', 'none', [{ value: Buffer.from(nested(d)), fate }])),
  /** Wide JSON: tens of thousands of fields, kept or filtered on its `keep` field. */
  wideJson: fc.tuple(fc.integer({ min: 1_000, max: 40_000 }), fc.boolean())
    .map(([n, k]) => batch('wide-json', 'none', [{ value: Buffer.from(JSON.stringify({ ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i])), keep: k })), fate: k ? 'invoked' : 'filtered' }])),
  /**
   * A batch of zeros that decompresses past maxDecompressedBytes, in one codec: BatchUnreadable
   * (kafkajs refuses it from its framing; librdkafka inflates it in C and the member lets its bytes go as it arrives).
   */
  bomb: fc.tuple(fc.constantFrom(...CODECS), fc.integer({ min: 40, max: 64 }))
    .map(([codec, mb]) => batch('bomb', codec, [{ value: Buffer.alloc(mb * 1024 * 1024), fate: 'destination:BatchUnreadable' }])),
  /** An honest compressed batch in one codec. */
  honest: fc.tuple(fc.constantFrom(...CODECS), fc.integer({ min: 1, max: 20 }))
    .map(([codec, n]) => batch('honest-compressed', codec, Array.from({ length: n }, (_, i) => ({ value: keep(i % 2 === 0), fate: i % 2 === 0 ? 'invoked' : 'filtered' })))),
  /**
   * One batch of 100,000–140,000 records without a value, as kafkajs's own producer writes it from
   * one send (kafkajs's fetch threw RangeError on it, for ever): each filtered out (a tombstone
   * matches no value pattern; an empty string would match `{ value: … }`, as AWS's plain-string rule says).
   */
  manyRecords: fc.integer({ min: 100_000, max: 140_000 }).map((n) => batch('many-records', 'gzip', Array.from({ length: n }, () => ({ value: null, fate: 'filtered' as Fate })))),
  /** A gzip batch of records with tens of thousands of headers each: counted, never built (HeadersOverLimit). */
  headerFlood: fc.tuple(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 20_000, max: 40_000 }))
    .map(([n, h]) => batch('header-flood', 'gzip', Array.from({ length: n }, () => ({ value: keep(true), headers: Array.from({ length: h }, (_, i): [string, Buffer] => [`h${i}`, Buffer.from('x')]), fate: 'destination:HeadersOverLimit' as Fate })))),
  /**
   * 10–16 zstd batches in a row in one partition, each one record of 4 MiB (a few hundred bytes
   * compressed), under a batch's bound: one fetch carries them all, and decodes only what its budget holds.
   */
  fetchBudget: fc.integer({ min: 10, max: 16 }).map((repeat) => ({
    ...batch('fetch-budget', 'zstd', [{ value: Buffer.from(JSON.stringify({ keep: true, pad: '0'.repeat(4 * 1024 * 1024) })), fate: 'invoked' as Fate }]),
    repeat,
  })),
  /**
   * One record larger than Lambda's payload limit: with the tier's filter it is past
   * maxFilterValueBytes first (FilterFailed, refused from its length before it is read).
   */
  oversized: fc.integer({ min: 7, max: 7 }).map((mb) => batch('oversized', 'none', [{ value: Buffer.alloc(mb * 1024 * 1024, 0x61), fate: 'destination:FilterFailed' }])),
};

/** How many batches of each kind the tier produces. */
export const COUNTS: Record<keyof typeof arbitraries, number> = { prototypeHeaders: 12, manyHeaders: 8, deepJson: 8, wideJson: 4, bomb: 8, honest: 8, manyRecords: 1, headerFlood: 1, fetchBudget: 1, oversized: 1 };

export function hostileBatches(seed: number): HostileBatch[] {
  const out: HostileBatch[] = [];
  for (const [name, n] of Object.entries(COUNTS) as Array<[keyof typeof arbitraries, number]>) {
    out.push(...fc.sample(arbitraries[name] as fc.Arbitrary<HostileBatch>, { seed: seed + name.length, numRuns: n }));
  }
  // Every codec gets a bomb, whatever the draw.
  for (const codec of CODECS) if (!out.some((b) => b.kind === 'bomb' && b.codec === codec)) out.push(batch('bomb', codec, [{ value: Buffer.alloc(40 * 1024 * 1024), fate: 'destination:BatchUnreadable' }]));
  // Shuffled with the seed, so kinds interleave within partitions.
  return fc.sample(fc.shuffledSubarray(out, { minLength: out.length, maxLength: out.length }), { seed, numRuns: 1 })[0]!;
}
