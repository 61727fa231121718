/**
 * A Lambda deployment zip, written the same way on every machine: entries sorted by path, '/'
 * separators, one fixed timestamp, and Unix modes in the central directory (0644 files, 0755
 * directories, made by "Unix"), so a zip built on Windows or macOS unpacks on Lambda as one built
 * on Linux does, and the same bundles give the same bytes (the framework's code hash stays put
 * and nothing redeploys). Deflate from node:zlib; no ZIP64 (a Lambda zip is at most 50 MB).
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The path inside the zip, '/'-separated and relative (functions/orders.mjs). */
  path: string;
  data: Buffer;
}

// 1980-01-01 00:00, the earliest time a zip can hold (DOS date 1980-01-01 = 0x21, time 0).
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;
const FILE_MODE = 0o100644;
const DIR_MODE = 0o040755;
const MADE_BY_UNIX = (3 << 8) | 20;
const VERSION_NEEDED = 20;
const UTF8_NAMES = 1 << 11;

export function zipBytes(entries: readonly ZipEntry[]): Buffer {
  const files = new Map<string, Buffer>();
  for (const e of entries) {
    const path = e.path.replace(/\\/g, '/').replace(/^\/+/, '');
    if (path === '' || path.split('/').some((part) => part === '..' || part === '.' || part === '')) {
      throw new Error(`zip entry "${e.path}" is not a plain relative path`);
    }
    if (files.has(path)) throw new Error(`zip entry "${path}" is given twice`);
    files.set(path, e.data);
  }
  // Every parent directory gets an entry of its own: some unzip tools (and Lambda's layers) want them.
  const dirs = new Set<string>();
  for (const path of files.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/') + '/');
  }
  const all = [...[...dirs].map((d) => ({ path: d, data: Buffer.alloc(0), dir: true })), ...[...files].map(([path, data]) => ({ path, data, dir: false }))];
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of all) {
    const name = Buffer.from(e.path, 'utf8');
    const deflated = e.dir ? e.data : deflateRawSync(e.data, { level: 9 });
    const stored = e.dir || deflated.length >= e.data.length;
    const body = stored ? e.data : deflated;
    const crc = crc32(e.data);
    const method = stored ? 0 : 8;

    // The local header and the central directory entry share a run of fields: version needed to the name's length.
    const fields = { method, crc, compressed: body.length, size: e.data.length, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeShared(local, 4, fields);
    local.writeUInt16LE(0, 28); // extra

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    writeShared(central, 6, fields);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    // External attributes: the Unix mode in the high 16 bits, MS-DOS's directory bit in the low ones.
    central.writeUInt32LE((((e.dir ? DIR_MODE : FILE_MODE) << 16) | (e.dir ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);

    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  if (all.length > 0xffff || offset + directory.length > 0xffffffff) throw new Error('zip too large for a Lambda deployment package (no ZIP64)');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(all.length, 8);
  end.writeUInt16LE(all.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}

/** Version needed, flags, method, time, date, CRC-32, sizes and the name's length, from `at`. */
function writeShared(b: Buffer, at: number, f: { method: number; crc: number; compressed: number; size: number; nameLength: number }): void {
  b.writeUInt16LE(VERSION_NEEDED, at);
  b.writeUInt16LE(UTF8_NAMES, at + 2);
  b.writeUInt16LE(f.method, at + 4);
  b.writeUInt16LE(DOS_TIME, at + 6);
  b.writeUInt16LE(DOS_DATE, at + 8);
  b.writeUInt32LE(f.crc, at + 10);
  b.writeUInt32LE(f.compressed, at + 14);
  b.writeUInt32LE(f.size, at + 18);
  b.writeUInt16LE(f.nameLength, at + 22);
}
