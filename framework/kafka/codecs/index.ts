/**
 * Every record codec Kafka has. kafkajs decodes gzip itself and throws KafkaJSNotImplemented on
 * snappy, lz4 and zstd batches unless codecs are registered; this registers all three, once, on
 * import. Each is a napi-rs binding whose prebuilt binary arrives as an npm optional dependency
 * (no download at install, no compiler): `snappy` (Google's snappy), `lz4-napi` (lz4_flex, the
 * LZ4 frame format Kafka uses since 0.10) and `@mongodb-js/zstd` 1.x (libzstd).
 */
import { compress as zstdCompress, decompress as zstdDecompress } from '@mongodb-js/zstd';
import kafkajs from 'kafkajs';
import { compressFrameSync, decompressFrameSync } from 'lz4-napi';
import { compressSync as snappyCompress, uncompressSync as snappyUncompress } from 'snappy';
import { decodeSnappyPayload, encodeSnappyPayload } from './snappy-framing.ts';

/** What kafkajs calls: `compress` gets its encoder (the record bytes in `.buffer`). */
interface Codec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

const uncompressBlock = (block: Buffer) => snappyUncompress(block, { asBuffer: true }) as Buffer;

export const codecs = {
  snappy: {
    compress: async ({ buffer }) => encodeSnappyPayload(buffer, (b) => snappyCompress(b)),
    decompress: async (buffer) => decodeSnappyPayload(buffer, uncompressBlock),
  },
  lz4: {
    compress: async ({ buffer }) => compressFrameSync(buffer),
    decompress: async (buffer) => decompressFrameSync(buffer),
  },
  zstd: {
    compress: async ({ buffer }) => zstdCompress(buffer),
    decompress: async (buffer) => zstdDecompress(buffer),
  },
} satisfies Record<string, Codec>;

// Plain Node ESM cannot see kafkajs's CommonJS named exports (tests/regressions): use the default.
const { CompressionCodecs, CompressionTypes } = kafkajs;
CompressionCodecs[CompressionTypes.Snappy] = () => codecs.snappy;
CompressionCodecs[CompressionTypes.LZ4] = () => codecs.lz4;
CompressionCodecs[CompressionTypes.ZSTD] = () => codecs.zstd;
