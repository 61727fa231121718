import { describe, expect, it } from 'vitest';
import { compressSync, uncompressSync } from 'snappy';
import { codecs } from './index.ts';
import { decodeSnappyPayload, encodeSnappyPayload, isXerial, XERIAL_BLOCK_BYTES } from './snappy-framing.ts';

/** What the fixtures below hold: `record-0;record-1;…record-399;` and a newline. */
const PLAIN = Buffer.from(Array.from({ length: 400 }, (_, i) => `record-${i};`).join('') + '\n');
/** `zstd -c < plain`: a streaming frame without a content size, as Java's zstd-jni writes. */
const ZSTD_STREAM = 'KLUv/QRYBQsA5ho2EbBXcgC5YZJ2TrsiIuXJxEmAMgAwAC8A8f///8/MzMzMiIiIiIjYtm3bbdu2LUmSJLlt27ZJkiRJEREREfERl1MIhACCA4OBgoMKCgoK+v///2dmZmZmRERERERs27bttm3bliRJkty2bdskSZKkiIiIiAghhBBCCCELCwv7////Z2ZmZmZERERERGzbtu22bduWJEmS3LZt2yRJkqSIiIiIiKCgoKCgEAAC/////2dmZmZmRERERERs27bttm3bliRJkty2bdskSZKkiIiIiIiwsLCwsLAQgY+oIfBuB8En1WoRjCBIfgyvGCkhIiJCREgY9I/+yS/9E3tjhISICAkRIQFXiD/501/iXxAxMiIkJISE2DjxB+2rIivI6mPlWGmsMlaL1YpVYlURr1yvXq9fr06vLq+urq6trqeul677J9WkKmmSPlJFakiDdPOjPGRd1/W6rldpVQikVdB/Xv0=';
/** `lz4 -c < plain`: the reference tool's LZ4 frame. */
const LZ4_FRAME = 'BCJNGGRAp00GAACTcmVjb3JkLTA7CQAUMQkAFDIJABQzCQAUNAkAFDUJABQ2CQAUNwkAFDgJABQ5CQAWMVsABVwAFTFdABUxXgAVMV8AFTFgABUxYQAVMWIAFTFjABUxZAAVMmQAFTJkABUyZAAVMmQAFTJkABUyZAAVMmQAFTJkABUyZAAVMmQAFTNkABUzZAAVM2QAFTNkABUzZAAVM2QAFTNkABUzZAAVM2QAFTNkABU0ZAAVNGQAFTRkABU0ZAAVNGQAFTRkABU0ZAAVNGQAFTRkABU0ZAAVNWQAFTVkABU1ZAAVNWQAFTVkABU1ZAAVNWQAFTVkABU1ZAAVNWQAFTZkABU2ZAAVNmQAFTZkABU2ZAAVNmQAFTZkABU2ZAAVNmQAFTZkABU3ZAAVN2QAFTdkABU3ZAAVN2QAFTdkABU3ZAAVN2QAFTdkABU3ZAAVOGQAFThkABU4ZAAVOGQAFThkABU4ZAAVOGQAFThkABU4ZAAVOGQAFTlkABU5ZAAVOWQAFTlkABU5ZAAVOWQAFTlkABU5ZAAVOWQAFTlkACUxMGUAJTEwZgAlMTBnACUxMGgAJTEwaQAlMTBqACUxMGsAJTEwbAAlMTBtACYxMG4ACPMDBm4AB/UDFjFuAAf3Awf4Awf5Awf6Awf7Awb8AxYx/QMWMf4DFjH/AxYxAAQWMQEEFjECBBYxAwQWMQQEFjEFBBYxBgQWMQcEFjEIBBYxCQQWMQoEFjELBBYxDAQWMQ0EFjEOBBYxDwQWMRAEFjERBBYxEgQWMRMEFjEUBBYxFQQWMRYEFjEXBBYxGAQWMRkEFjEaBBYxGwQWMRwEFjEdBBYxHgQWMR8EFjEgBBYxIQQWMSIEFjEjBBYxJAQWMSUEFjEmBBYxJwQWMSgEFjEpBBYxKgQWMSsEFjEsBBYxLQQWMS4EFjEvBBYxMAQWMTEEFjEyBBYxMwQWMTQEFjE1BBYxNgQWMTcEFjE4BBYxOQQWMToEFjE7BBYxPAQWMT0EFjE+BBYxPwQWMUAEFjFBBBYxQgQWMUMEFjFEBBYxRQQWMUYEFjFHBBYxSAQWMUkEFjFKBBYxSwQWMUwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBCUyNAQGJjI0SgEGTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWMkwEFjJMBBYyTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBCUzNboEJTM1ugQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBBYzTAQWM0wEFjNMBFAzOTk7CgAAAADBmPuU';

const block = (b: Buffer) => uncompressSync(b, { asBuffer: true }) as Buffer;

describe('record codecs', () => {
  it('reads a zstd frame without a content size and an LZ4 frame written by the reference tools', async () => {
    expect((await codecs.zstd.decompress(Buffer.from(ZSTD_STREAM, 'base64'))).equals(PLAIN)).toBe(true);
    expect((await codecs.lz4.decompress(Buffer.from(LZ4_FRAME, 'base64'))).equals(PLAIN)).toBe(true);
  });

  it.each(['snappy', 'lz4', 'zstd'] as const)('%s: what it writes it reads back, empty and large', async (name) => {
    for (const data of [Buffer.alloc(0), PLAIN, Buffer.alloc(3 * XERIAL_BLOCK_BYTES + 17, 7)]) {
      const packed = await codecs[name].compress({ buffer: data });
      expect((await codecs[name].decompress(packed)).equals(data)).toBe(true);
    }
  });
});

describe('snappy framing', () => {
  it('reads a raw snappy block (no xerial header), as librdkafka may write it', () => {
    const raw = compressSync(PLAIN);
    expect(isXerial(raw)).toBe(false);
    expect(decodeSnappyPayload(raw, block).equals(PLAIN)).toBe(true);
  });

  it('writes the xerial stream in 32 KB blocks and reads every block back in order', () => {
    const data = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
    const framed = encodeSnappyPayload(data, (b) => compressSync(b));
    expect(isXerial(framed)).toBe(true);
    expect([...framed.subarray(0, 16)]).toEqual([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    let blocks = 0;
    decodeSnappyPayload(framed, (b) => (blocks++, block(b)));
    expect(blocks).toBe(Math.ceil(data.length / XERIAL_BLOCK_BYTES));
    expect(decodeSnappyPayload(framed, block).equals(data)).toBe(true);
  });

  it('says where a cut-short xerial payload ends instead of returning partial data', () => {
    const framed = encodeSnappyPayload(PLAIN, (b) => compressSync(b));
    expect(() => decodeSnappyPayload(framed.subarray(0, framed.length - 3), block)).toThrow(/cut short: a \d+-byte block at byte 20/);
    expect(() => decodeSnappyPayload(framed.subarray(0, 18), block)).toThrow(/cut short: a block length at byte 16/);
  });
});
