/**
 * Pure: the offset commit's metadata string that carries the records done beyond the committed
 * offset (done-ranges.ts), so that whichever member owns the partition next skips them.
 *
 *   sluice:pf1:<base64url, unpadded>
 *   payload = tag byte, varint(base), body
 *   tag 'B' (bitmap): bit i (LSB first) of the body says whether offset base + 1 + i is done
 *   tag 'R' (runs):   varints alternating not-done, done lengths from base + 1; the first
 *                     not-done length may be 0, every other length is at least 1; the last run is done
 *
 * `base` is the committed offset the string was written with: the commit's own offset, repeated
 * so that metadata left beside another offset (a reset by a tool that kept it) is recognised as
 * stale instead of skipping the wrong records. The encoder writes the shorter of the two bodies.
 *
 * The broker refuses a commit whose metadata is longer than `offset.metadata.max.bytes` (4,096 by
 * default; it counts characters, and every character here is ASCII). The bitmap of `windowFor(max)`
 * offsets always fits, so the poller starts no chunk beyond `base + windowFor(max)`; the encoder
 * drops whatever lies beyond the window (only filtered records and gaps can: nothing invoked does).
 */
import { clampRanges, type OffsetRange } from './done-ranges.ts';

export const METADATA_PREFIX = 'sluice:pf1:';
/** What any Sluice metadata starts with, whatever its version. */
const OWN_PREFIX = 'sluice:';
/** Kafka's default `offset.metadata.max.bytes`. */
export const DEFAULT_METADATA_MAX_BYTES = 4096;

const TAG_BITMAP = 0x42; // 'B'
const TAG_RUNS = 0x52; // 'R'
/** A varint of an offset below 2^53 takes at most 8 bytes (7 bits each). */
const MAX_VARINT_BYTES = 8;

export type DecodedMetadata =
  /** No metadata (null or empty): nothing is known done beyond the committed offset. */
  | { kind: 'none' }
  | { kind: 'done'; ranges: OffsetRange[] }
  /** Not written by Sluice (another client of the same group, a tool): ignored. */
  | { kind: 'foreign' }
  /** Sluice's, but it cannot be read (damaged, or a version this Sluice does not know): ignored. */
  | { kind: 'malformed'; reason: string }
  /** Sluice's, written with another committed offset than the one it now sits beside: ignored. */
  | { kind: 'stale'; base: number };

/** The most offsets beyond the committed one whose bitmap always fits `maxBytes` characters. */
export function windowFor(maxBytes: number): number {
  const payloadBytes = Math.floor(((maxBytes - METADATA_PREFIX.length) * 3) / 4);
  return Math.max(0, (payloadBytes - 1 - MAX_VARINT_BYTES) * 8);
}

/**
 * The metadata for committing `base` with `doneBeyond` (sorted, disjoint, all above `base`), at
 * most `maxBytes` characters; null when nothing done lies within the window (commit no metadata).
 */
export function encodeMetadata(base: number, doneBeyond: readonly OffsetRange[], maxBytes = DEFAULT_METADATA_MAX_BYTES): string | null {
  checkRanges(base, doneBeyond);
  const ranges = clampRanges(doneBeyond, base + windowFor(maxBytes));
  if (ranges.length === 0) return null;
  const baseBytes = varint(base);
  const bitmap = bitmapBody(base, ranges);
  const runs = runsBody(base, ranges);
  const payload = runs.length < bitmap.length ? Buffer.from([TAG_RUNS, ...baseBytes, ...runs]) : Buffer.concat([Buffer.from([TAG_BITMAP, ...baseBytes]), bitmap]);
  return METADATA_PREFIX + payload.toString('base64url');
}

/**
 * Metadata as it was committed: librdkafka's binding ends what it commits with C's NUL, and the
 * broker answers "" for a commit made without metadata (null).
 */
export function asCommitted(raw: string | null | undefined): string | null {
  return raw?.replace(/\0+$/, '') || null;
}

/** Reads the metadata committed beside `committed`; never throws. */
export function decodeMetadata(raw: string | null | undefined, committed: number): DecodedMetadata {
  const metadata = asCommitted(raw);
  if (!metadata) return { kind: 'none' };
  if (!metadata.startsWith(OWN_PREFIX)) return { kind: 'foreign' };
  if (!metadata.startsWith(METADATA_PREFIX)) return { kind: 'malformed', reason: `unknown version "${metadata.slice(OWN_PREFIX.length, OWN_PREFIX.length + 8)}"` };
  const text = metadata.slice(METADATA_PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return { kind: 'malformed', reason: 'not base64url' };
  const bytes = Buffer.from(text, 'base64url');
  const reader = { bytes, at: 1 };
  const base = readVarint(reader);
  if (base === undefined) return { kind: 'malformed', reason: 'truncated before the base offset' };
  if (base !== committed) return { kind: 'stale', base };
  const tag = bytes[0];
  const ranges = tag === TAG_BITMAP ? readBitmap(base, bytes.subarray(reader.at)) : tag === TAG_RUNS ? readRuns(base, reader) : `unknown body tag ${tag}`;
  if (typeof ranges === 'string') return { kind: 'malformed', reason: ranges };
  return ranges.length === 0 ? { kind: 'malformed', reason: 'no offset marked done' } : { kind: 'done', ranges };
}

function checkRanges(base: number, ranges: readonly OffsetRange[]): void {
  let after = base;
  for (const r of ranges) {
    if (!Number.isSafeInteger(r.from) || !Number.isSafeInteger(r.until) || r.from <= after || r.until < r.from) {
      throw new RangeError(`done ranges must be sorted, disjoint and above the committed offset ${base}; got ${JSON.stringify(ranges)}`);
    }
    after = r.until;
  }
}

function bitmapBody(base: number, ranges: readonly OffsetRange[]): Buffer {
  const span = ranges[ranges.length - 1]!.until - base;
  const body = Buffer.alloc(Math.ceil(span / 8));
  for (const r of ranges) {
    for (let o = r.from; o <= r.until; o++) {
      const i = o - base - 1;
      body[i >> 3]! |= 1 << (i & 7);
    }
  }
  return body;
}

function runsBody(base: number, ranges: readonly OffsetRange[]): number[] {
  const out: number[] = [];
  let at = base + 1;
  for (const r of ranges) {
    out.push(...varint(r.from - at), ...varint(r.until - r.from + 1));
    at = r.until + 1;
  }
  return out;
}

function readBitmap(base: number, body: Buffer): OffsetRange[] | string {
  const ranges: OffsetRange[] = [];
  for (let i = 0; i < body.length * 8; i++) {
    if (!(body[i >> 3]! & (1 << (i & 7)))) continue;
    const o = base + 1 + i;
    if (!Number.isSafeInteger(o)) return 'an offset beyond 2^53';
    const last = ranges[ranges.length - 1];
    if (last && last.until === o - 1) last.until = o;
    else ranges.push({ from: o, until: o });
  }
  return ranges;
}

function readRuns(base: number, reader: { bytes: Buffer; at: number }): OffsetRange[] | string {
  const ranges: OffsetRange[] = [];
  let at = base + 1;
  while (reader.at < reader.bytes.length) {
    const gap = readVarint(reader);
    const length = readVarint(reader);
    if (gap === undefined || length === undefined) return 'a run is truncated';
    if (length === 0 || (gap === 0 && ranges.length > 0)) return 'a run of length 0';
    const from = at + gap;
    const until = from + length - 1;
    if (!Number.isSafeInteger(until)) return 'an offset beyond 2^53';
    ranges.push({ from, until });
    at = until + 1;
  }
  return ranges;
}

/** Unsigned LEB128 of a safe integer. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

function readVarint(reader: { bytes: Buffer; at: number }): number | undefined {
  let n = 0;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const b = reader.bytes[reader.at++];
    if (b === undefined) return undefined;
    n += (b & 0x7f) * 2 ** (7 * i);
    if (!(b & 0x80)) return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}
