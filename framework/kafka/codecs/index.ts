/**
 * Every record codec Kafka has, each with its output bounded. kafkajs decodes gzip itself (with
 * no bound) and throws KafkaJSNotImplemented on snappy, lz4 and zstd batches unless codecs are
 * registered; this registers all four, once, on import. snappy, lz4 and zstd are napi-rs bindings
 * whose prebuilt binary arrives as an npm optional dependency (no download at install, no
 * compiler): `snappy` (Google's snappy), `lz4-napi` (lz4_flex, the LZ4 frame format Kafka uses
 * since 0.10) and `@mongodb-js/zstd` 1.x (libzstd); gzip is node:zlib's, off the event loop.
 *
 * A batch that would decompress past maxDecompressedBytes is refused from its framing before it
 * is inflated (output-bound.ts; gzip: zlib's maxOutputLength stops it); Sluice's patch of kafkajs
 * turns the refusal into one unreadable placeholder record (BatchUnreadable), not a crashed fetch.
 */
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { compress as zstdCompress, decompress as zstdDecompress } from '@mongodb-js/zstd';
import kafkajs from 'kafkajs';
import { compressFrameSync, decompressFrame } from 'lz4-napi';
import { compressSync as snappyCompress, uncompressSync as snappyUncompress } from 'snappy';
import { INPUT_BOUNDS } from '../../config/input-bounds.ts';
import { FETCH_BOUNDS } from './fetch-bounds.ts';
import { inflateAtMost } from './inflate.ts';
import { checkBound, DecompressionBoundError, lz4OutputBound, snappyBlockLength, zstdOutputBound } from './output-bound.ts';
import { decodeSnappyPayload, encodeSnappyPayload } from './snappy-framing.ts';

/**
 * What kafkajs calls: `compress` gets its encoder (the record bytes in `.buffer`); `decompress`,
 * from Sluice's patch of kafkajs, what the batch may take of its fetch's budget too.
 */
interface Codec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer, left?: number): Promise<Buffer>;
}

const gzip = promisify(gzipCb);

/** What was decompressed, checked once more against the limit (the framing said it would fit). */
function checked(codec: string, out: Buffer, limit: number): Buffer {
  checkBound(codec, out.length, limit);
  return out;
}

/** The four codecs, each refusing to decompress past `bound` bytes, or past what the fetch has `left` if less. */
export function boundedCodecs(bound: number) {
  const within = (left: number | undefined) => Math.min(bound, left ?? bound);
  return {
    gzip: {
      compress: async ({ buffer }) => gzip(buffer),
      decompress: async (buffer: Buffer, left?: number) => {
        const limit = within(left);
        const out = await inflateAtMost('unzip', buffer, limit);
        if (!out) throw new DecompressionBoundError(`the gzip payload decompresses to more than ${limit} bytes (maxDecompressedBytes)`);
        return out;
      },
    },
    snappy: {
      compress: async ({ buffer }) => encodeSnappyPayload(buffer, (b) => snappyCompress(b)),
      decompress: async (buffer: Buffer, left?: number) => {
        const limit = within(left);
        let total = 0;
        const block = (b: Buffer) => {
          total += snappyBlockLength(b);
          checkBound('snappy', total, limit);
          return snappyUncompress(b, { asBuffer: true }) as Buffer;
        };
        return checked('snappy', decodeSnappyPayload(buffer, block), limit);
      },
    },
    lz4: {
      compress: async ({ buffer }) => compressFrameSync(buffer),
      decompress: async (buffer: Buffer, left?: number) => {
        const limit = within(left);
        checkBound('LZ4', lz4OutputBound(buffer), limit);
        return checked('LZ4', await decompressFrame(buffer), limit);
      },
    },
    zstd: {
      compress: async ({ buffer }) => zstdCompress(buffer),
      decompress: async (buffer: Buffer, left?: number) => {
        const limit = within(left);
        checkBound('zstd', zstdOutputBound(buffer), limit);
        return checked('zstd', await zstdDecompress(buffer), limit);
      },
    },
  } satisfies Record<string, Codec>;
}

export const codecs = boundedCodecs(INPUT_BOUNDS.maxDecompressedBytes);

/**
 * The bounds Sluice's patch of kafkajs reads while it decodes a fetch response (infra/patches/kafkajs.mjs,
 * sluice-patch v3): each holds before the cost it guards, so none is checked again on what kafkajs hands over.
 */
Object.assign(globalThis, {
  [Symbol.for('sluice.inputBounds')]: {
    maxHeaders: INPUT_BOUNDS.maxHeaders,
    maxHeaderBytes: INPUT_BOUNDS.maxHeaderBytes,
    maxDecompressedBytes: INPUT_BOUNDS.maxDecompressedBytes,
    maxFetchDecompressedBytes: FETCH_BOUNDS.maxFetchDecompressedBytes,
    recordCost: FETCH_BOUNDS.recordCost,
    headerCost: FETCH_BOUNDS.headerCost,
  },
});

// Plain Node ESM cannot see kafkajs's CommonJS named exports (tests/regressions): use the default.
const { CompressionCodecs, CompressionTypes } = kafkajs;
CompressionCodecs[CompressionTypes.GZIP] = () => codecs.gzip;
CompressionCodecs[CompressionTypes.Snappy] = () => codecs.snappy;
CompressionCodecs[CompressionTypes.LZ4] = () => codecs.lz4;
CompressionCodecs[CompressionTypes.ZSTD] = () => codecs.zstd;
