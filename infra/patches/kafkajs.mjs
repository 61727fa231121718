#!/usr/bin/env node
// Sluice's patch of kafkajs 2.2.4 (README, "Bounds on hostile input"), applied at install by
// package.json's postinstall and by infra/deploy/Dockerfile, and checked when a poller starts
// (framework/kafka/kafkajs-patch.ts). kafkajs has had no release since 2023; these two changes
// are what no setting of it can reach:
//
// 1. A record's headers are collected in linear time into an object without a prototype. kafkajs
//    spreads the whole object once per header (8,000 headers took 11 s on the poller's thread),
//    and reads `obj[key]` of a plain object, so a header named `constructor`, `toString` or
//    `__proto__` picked up Object.prototype's members instead of its value.
// 2. A record batch whose records cannot be read (a codec's output bound, corrupt bytes, compressed
//    or not) no longer throws out of the fetch, which crashed the consumer on the same batch for
//    ever: it becomes one placeholder message at the batch's last offset, carrying `unreadable`
//    (its first offset and the error), which Sluice sends through the failure policy. kafkajs's
//    own decodeRecords is kept as it is, renamed readRecords, behind one that catches.
//
// It works on the kafkajs that this file resolves (this repository's, or the one beside an
// installed serverless-sluice), is idempotent, and refuses to touch any other kafkajs version.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

const HEADERS_MARKER = 'sluice-patch v1';
const VERSION = '2.2.4';

const HEADERS_BEFORE = `  const headers = decoder.readVarIntArray(HeaderDecoder).reduce(
    (obj, { key, value }) => ({
      ...obj,
      [key]:
        obj[key] === undefined
          ? value
          : Array.isArray(obj[key])
          ? obj[key].concat([value])
          : [obj[key], value],
    }),
    {}
  )`;
const HEADERS_AFTER = `  // ${HEADERS_MARKER}: linear, and a header named constructor or __proto__ is an ordinary header
  const headers = Object.create(null)
  for (const { key, value } of decoder.readVarIntArray(HeaderDecoder)) {
    const seen = headers[key]
    headers[key] = seen === undefined ? value : Array.isArray(seen) ? (seen.push(value), seen) : [seen, value]
  }`;

const BATCH_MARKER = 'sluice-patch v2';
const BATCH_BEFORE = `const decodeRecords = async (codec, recordsDecoder, recordContext) => {
  if (!codec) {`;
const BATCH_AFTER = `// ${BATCH_MARKER}: a batch that cannot be read, compressed or not, is one placeholder message, not a crashed fetch
const decodeRecords = async (codec, recordsDecoder, recordContext) => {
  try {
    return await readRecords(codec, recordsDecoder, recordContext)
  } catch (e) {
    if (e && e.name === 'KafkaJSPartialMessageError') throw e
    return [unreadableBatch(recordContext, e)]
  }
}

const unreadableBatch = (ctx, error) => ({
  magicByte: ctx.magicByte,
  attributes: 0,
  timestamp: ctx.maxTimestamp,
  offset: Long.fromValue(ctx.firstOffset).add(ctx.lastOffsetDelta).toString(),
  key: null,
  value: null,
  headers: Object.create(null),
  isControlRecord: ctx.isControlBatch,
  batchContext: ctx,
  unreadable: { firstOffset: ctx.firstOffset, error: String((error && error.message) || error) },
})

const readRecords = async (codec, recordsDecoder, recordContext) => {
  if (!codec) {`;
const BATCH_IMPORT_BEFORE = `const Decoder = require('../../decoder')\n`;
const BATCH_IMPORT_AFTER = `const Decoder = require('../../decoder')\nconst Long = require('../../../utils/long')\n`;

/** Each file, the marker its patched text holds, and the edits that patch kafkajs's own text. */
const FILES = [
  { path: 'src/protocol/recordBatch/record/v0/decoder.js', marker: HEADERS_MARKER, edits: [[HEADERS_BEFORE, HEADERS_AFTER]] },
  { path: 'src/protocol/recordBatch/v0/decoder.js', marker: BATCH_MARKER, edits: [[BATCH_IMPORT_BEFORE, BATCH_IMPORT_AFTER], [BATCH_BEFORE, BATCH_AFTER]] },
];

/** Per patched file, the marker a start-up check looks for. */
export const MARKERS = Object.fromEntries(FILES.map((f) => [f.path, f.marker]));

/** The kafkajs directory `from` resolves (a file path or URL). */
export function kafkajsDir(from = import.meta.url) {
  return dirname(createRequire(from).resolve('kafkajs/package.json'));
}

/** The files of kafkajs still to patch (none: it is patched). */
export function unpatched(dir = kafkajsDir()) {
  return FILES.filter((f) => !readFileSync(join(dir, f.path), 'utf8').includes(f.marker)).map((f) => f.path);
}

export function applyPatch(dir = kafkajsDir()) {
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (version !== VERSION) throw new Error(`sluice: kafkajs ${version} at ${dir} is not ${VERSION}, the version this patch is for: install kafkajs@${VERSION}`);
  const changed = [];
  for (const f of FILES) {
    const file = join(dir, f.path);
    const read = readFileSync(file, 'utf8');
    if (read.includes(f.marker)) continue;
    let text = undoV1(read);
    for (const [before, after] of f.edits) {
      if (!text.includes(before)) throw new Error(`sluice: ${file} does not hold the text this patch replaces; reinstall kafkajs@${VERSION} (rm -rf node_modules/kafkajs && npm install)`);
      text = text.replace(before, () => after);
    }
    writeBeside(file, text);
    changed.push(f.path);
  }
  return changed;
}

/**
 * Replaces `file` by writing a new file beside it and renaming it over: package managers that
 * hardlink node_modules into a shared store (pnpm) would see an in-place write in every project.
 */
function writeBeside(file, text) {
  const temp = join(dirname(file), `.${basename(file)}.sluice-${process.pid}.tmp`);
  writeFileSync(temp, text, { mode: statSync(file).mode });
  renameSync(temp, file);
}

/**
 * The batch decoder as kafkajs wrote it, from one patched by sluice-patch v1 (whose try held only
 * the compressed branch): the try's body, dedented, and no placeholder builder or Long import.
 */
function undoV1(text) {
  if (!text.includes('// sluice-patch v1: a batch')) return text;
  return text
    .replace(/  \/\/ sluice-patch v1: a batch[^\n]*\n  try \{\n([\s\S]*?)\n  \} catch \(e\) \{\n[^\n]*\n  \}\n\}\n\nconst unreadableBatch = [\s\S]*?\n\}\)\n/, (_, body) => `${body.replace(/^  /gm, '')}\n}\n`)
    .replace(BATCH_IMPORT_AFTER, BATCH_IMPORT_BEFORE);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  try {
    const dir = kafkajsDir();
    const changed = applyPatch(dir);
    console.error(changed.length ? `sluice: patched kafkajs at ${dir} (${changed.join(', ')})` : `sluice: kafkajs at ${dir} is already patched`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
