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
import { inflateAtMost } from './inflate.ts';
import { checkBound, DecompressionBoundError, lz4OutputBound, snappyBlockLength, zstdOutputBound } from './output-bound.ts';
import { decodeSnappyPayload, encodeSnappyPayload } from './snappy-framing.ts';

/** What kafkajs calls: `compress` gets its encoder (the record bytes in `.buffer`). */
interface Codec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

const gzip = promisify(gzipCb);

/** What was decompressed, checked once more against the limit (the framing said it would fit). */
function checked(codec: string, out: Buffer, limit: number): Buffer {
  checkBound(codec, out.length, limit);
  return out;
}

/** The four codecs, each refusing to decompress past `limit` bytes. */
export function boundedCodecs(limit: number) {
  return {
    gzip: {
      compress: async ({ buffer }) => gzip(buffer),
      decompress: async (buffer) => {
        const out = await inflateAtMost('unzip', buffer, limit);
        if (!out) throw new DecompressionBoundError(`the gzip payload decompresses to more than ${limit} bytes (maxDecompressedBytes)`);
        return out;
      },
    },
    snappy: {
      compress: async ({ buffer }) => encodeSnappyPayload(buffer, (b) => snappyCompress(b)),
      decompress: async (buffer) => {
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
      decompress: async (buffer) => {
        checkBound('LZ4', lz4OutputBound(buffer), limit);
        return checked('LZ4', await decompressFrame(buffer), limit);
      },
    },
    zstd: {
      compress: async ({ buffer }) => zstdCompress(buffer),
      decompress: async (buffer) => {
        checkBound('zstd', zstdOutputBound(buffer), limit);
        return checked('zstd', await zstdDecompress(buffer), limit);
      },
    },
  } satisfies Record<string, Codec>;
}

export const codecs = boundedCodecs(INPUT_BOUNDS.maxDecompressedBytes);

// Plain Node ESM cannot see kafkajs's CommonJS named exports (tests/regressions): use the default.
const { CompressionCodecs, CompressionTypes } = kafkajs;
CompressionCodecs[CompressionTypes.GZIP] = () => codecs.gzip;
CompressionCodecs[CompressionTypes.Snappy] = () => codecs.snappy;
CompressionCodecs[CompressionTypes.LZ4] = () => codecs.lz4;
CompressionCodecs[CompressionTypes.ZSTD] = () => codecs.zstd;
