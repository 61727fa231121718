#!/usr/bin/env node
// Sluice's patch of kafkajs 2.2.4 (README, "Bounds on hostile input"), applied at install by
// package.json's postinstall and by infra/deploy/Dockerfile, and checked when a poller starts
// (framework/kafka/kafkajs-patch.ts). kafkajs has had no release since 2023; these four changes
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
// 3. A consumer that is stopping does not rejoin its group. kafkajs heartbeats after every batch,
//    and a heartbeat that meets a rebalance made its runner rejoin even after stop() had begun:
//    the coordinator holds that JoinGroup until every other member rejoined (up to the rebalance
//    timeout), so a stop waited for the longest chunk of another member, then took partitions
//    only to leave them at once (tests/regressions/stop-waits-for-another-members-chunk.test.ts).
//
// 4. A fetch manager that was stopped builds no new fetchers. When the brokers changed (a node
//    stopped) a fetcher threw KafkaJSFetcherRebalanceError, and start() stopped the others and
//    built new fetchers: if the consumer's stop() came in meanwhile, the new fetchers asked the
//    stopped runner for a fetch, which answers [] at once, and looped on it in microtasks for
//    ever: the process hung at 100% CPU, with no timer firing (not even a test's timeout), and
//    stop() never returned (tests/regressions/stopped-fetch-manager-builds-no-fetchers.test.ts).
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

const CONSUMER_MARKER = 'sluice-patch v1';
const RUNNER_BEFORE = `      try {
        await this.fetchManager.start()
      } catch (e) {
        if (isRebalancing(e)) {`;
const RUNNER_AFTER = `      try {
        await this.fetchManager.start()
      } catch (e) {
        // ${CONSUMER_MARKER}: a runner that is stopping neither rejoins nor retries; stop() then leaves
        if (!this.running) {
          return
        }

        if (isRebalancing(e)) {`;

const FETCH_MANAGER_BEFORE = `  const start = async () => {
    logger.debug('Starting...')

    while (true) {
      fetchers = createFetchers()

      try {
        await Promise.all(fetchers.map(fetcher => fetcher.start()))
      } catch (error) {
        await stop()

        if (error instanceof KafkaJSFetcherRebalanceError) {
          logger.debug('Rebalancing fetchers...')
          continue
        }

        throw error
      }

      break
    }
  }

  const stop = async () => {
    logger.debug('Stopping fetchers...')
    await Promise.all(fetchers.map(fetcher => fetcher.stop()))
    logger.debug('Stopped fetchers')
  }`;
const FETCH_MANAGER_AFTER = `  // ${CONSUMER_MARKER}: once stop() was called, start() builds no new fetchers (they spun for ever)
  let stopped = false

  const start = async () => {
    logger.debug('Starting...')
    stopped = false

    while (true) {
      fetchers = createFetchers()

      try {
        await Promise.all(fetchers.map(fetcher => fetcher.start()))
      } catch (error) {
        await stopFetchers()

        if (error instanceof KafkaJSFetcherRebalanceError && !stopped) {
          logger.debug('Rebalancing fetchers...')
          continue
        }

        throw error
      }

      break
    }
  }

  const stopFetchers = async () => {
    logger.debug('Stopping fetchers...')
    await Promise.all(fetchers.map(fetcher => fetcher.stop()))
    logger.debug('Stopped fetchers')
  }

  const stop = async () => {
    stopped = true
    await stopFetchers()
  }`;

/** Each file, the marker its patched text holds, and the edits that patch kafkajs's own text. */
const FILES = [
  { path: 'src/protocol/recordBatch/record/v0/decoder.js', marker: HEADERS_MARKER, edits: [[HEADERS_BEFORE, HEADERS_AFTER]] },
  { path: 'src/protocol/recordBatch/v0/decoder.js', marker: BATCH_MARKER, edits: [[BATCH_IMPORT_BEFORE, BATCH_IMPORT_AFTER], [BATCH_BEFORE, BATCH_AFTER]] },
  { path: 'src/consumer/runner.js', marker: CONSUMER_MARKER, edits: [[RUNNER_BEFORE, RUNNER_AFTER]] },
  { path: 'src/consumer/fetchManager.js', marker: CONSUMER_MARKER, edits: [[FETCH_MANAGER_BEFORE, FETCH_MANAGER_AFTER]] },
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
