#!/usr/bin/env node
// Sluice's patch of kafkajs 2.2.4 (README, "Bounds on hostile input"), applied at install by
// package.json's postinstall and by infra/deploy/Dockerfile, and checked when a poller starts
// (framework/kafka/kafkajs/kafkajs-patch.ts). kafkajs has had no release since 2023; these six changes
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
// 5. What one fetch response may cost is bounded before it is spent (sluice-patch v3; the bounds
//    are Sluice's, framework/config/input-bounds.ts, handed over on globalThis): a partition's
//    record batches are appended one by one (kafkajs's `records.push(...batch.records)` overflowed
//    the stack at about 130,000 records, a batch kafkajs's own producer writes from one send, and
//    the fetch crashed on it for ever); a batch's declared record count and its decompressed bytes
//    are charged to the partition's and the response's budget before its records are built, and a
//    batch past what is left stays in the log, fetched again once the records before it were
//    handed over (a partition's first batch excepted: kafkajs asks for partitions in one fixed order,
//    and the last ones would starve); each record's headers are charged as it is built; a record's
//    headers past maxHeaders or maxHeaderBytes are not built at all (the record carries
//    `headersOverBound`, and Sluice sends it through the failure policy); and a fetch that found
//    only a compacted batch's records before it moves to that batch's last offset, not one offset on.
//
// 6. A producer's send groups its messages by partition in linear time. kafkajs copied the
//    partition's list once per message (`[...current, message]`): a send of 20,000 records spent
//    3 s on the caller's thread, 40,000 took 15 s, 120,000 over two minutes (a kafka://
//    destination's failed chunk and `sluice redrive` send through it; the poller's heartbeats
//    wait on that thread).
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

const BOUNDS_MARKER = 'sluice-patch v3';
/** Reads Sluice's bounds where the patched files need them: none (kafkajs's own behaviour) until Sluice set them. */
const BOUNDS = `const sluiceBounds = () => globalThis[Symbol.for('sluice.inputBounds')] || {}`;

const HEADERS_BOUNDED_BEFORE = `  const key = decoder.readVarIntBytes()
  const value = decoder.readVarIntBytes()
${HEADERS_AFTER}
`;
const HEADERS_BOUNDED_AFTER = `  const key = decoder.readVarIntBytes()
  const value = decoder.readVarIntBytes()
  // ${BOUNDS_MARKER}: headers past the bounds are counted, never built (the record's bytes end with them)
  const { maxHeaders = Infinity, maxHeaderBytes = Infinity } = sluiceBounds()
  const headersAt = decoder.offset
  const headerCount = decoder.readVarInt()
  const headerBytes = decoder.buffer.length - headersAt
  // A header costs its name and value and at most 10 bytes of length varints beside them.
  const headersOverBound = headerCount > maxHeaders || headerBytes > maxHeaderBytes + 10 * Math.min(headerCount, maxHeaders) ? { count: headerCount, bytes: headerBytes } : undefined
  decoder.offset = headersAt
${HEADERS_AFTER.replace('  const headers = Object.create(null)\n  for', '  const headers = Object.create(null)\n  if (!headersOverBound) for')}
`;
const HEADERS_RETURN_BEFORE = `    headers,
    isControlRecord: isControlBatch,`;
const HEADERS_RETURN_AFTER = `    headers,
    ...(headersOverBound ? { headersOverBound } : {}),
    isControlRecord: isControlBatch,`;
const HEADERS_REQUIRE_BEFORE = `const TimestampTypes = require('../../../timestampTypes')
`;
const HEADERS_REQUIRE_AFTER = `const TimestampTypes = require('../../../timestampTypes')
${BOUNDS}
`;

const BATCH_ENTRY_BEFORE = `module.exports = async fetchDecoder => {`;
const BATCH_ENTRY_AFTER = `// ${BOUNDS_MARKER}: \`bound\` is what this batch may take of its fetch's budget (decodeMessages)
module.exports = async (fetchDecoder, bound) => {`;
const BATCH_CALL_BEFORE = `  const records = await decodeRecords(codec, decoder, { ...recordContext, magicByte })`;
const BATCH_CALL_AFTER = `  const records = await decodeRecords(codec, decoder, { ...recordContext, magicByte }, bound)`;
const BATCH_CATCH_BEFORE = `const decodeRecords = async (codec, recordsDecoder, recordContext) => {
  try {
    return await readRecords(codec, recordsDecoder, recordContext)
  } catch (e) {
    if (e && e.name === 'KafkaJSPartialMessageError') throw e`;
const BATCH_CATCH_AFTER = `const decodeRecords = async (codec, recordsDecoder, recordContext, bound) => {
  try {
    return await readRecords(codec, recordsDecoder, recordContext, bound)
  } catch (e) {
    if (e && (e.name === 'KafkaJSPartialMessageError' || e.name === 'SluiceFetchBudget')) throw e`;
const BATCH_READ_BEFORE = `const readRecords = async (codec, recordsDecoder, recordContext) => {
  if (!codec) {
    return recordsDecoder.readArray(decoder => decodeRecord(decoder, recordContext))
  }

  const length = recordsDecoder.readInt32()

  if (length <= 0) {
    return []
  }

  const compressedRecordsBuffer = recordsDecoder.readAll()
  const decompressedRecordBuffer = await codec.decompress(compressedRecordsBuffer)
  const decompressedRecordDecoder = new Decoder(decompressedRecordBuffer)
  const records = new Array(length)

  for (let i = 0; i < length; i++) {
    records[i] = decodeRecord(decompressedRecordDecoder, recordContext)
  }

  return records
}`;
const BATCH_READ_AFTER = `const readRecords = async (codec, recordsDecoder, recordContext, bound) => {
  const length = recordsDecoder.readInt32()

  if (length <= 0) {
    return []
  }

  // ${BOUNDS_MARKER}: the declared count, then the decompressed bytes, within the bound before the records are built
  const { recordCost = 0 } = sluiceBounds()
  const limit = bound ? bound.limit : Infinity
  const counted = length * recordCost
  if (counted > limit) throw overBound(bound, \`it declares \${length} records, more than the fetch's bound leaves room for (\${Math.floor(limit / recordCost)})\`)
  let recordsDecoderToRead = recordsDecoder
  let spent = counted
  if (codec) {
    let decompressedRecordBuffer
    try {
      decompressedRecordBuffer = await codec.decompress(recordsDecoder.readAll(), limit - counted)
    } catch (e) {
      if (e && e.name === 'DecompressionBoundError') throw overBound(bound, e.message)
      throw e
    }
    if (decompressedRecordBuffer.length > limit - counted) throw overBound(bound, \`it decompresses to \${decompressedRecordBuffer.length} bytes, more than the \${limit - counted} left\`)
    recordsDecoderToRead = new Decoder(decompressedRecordBuffer)
    spent += decompressedRecordBuffer.length
  }
  // Headers are objects too: each record's are charged as it is built (at most maxHeaders of them), so a
  // batch of many records of many small headers stops at its bound, not after millions are built.
  const { headerCost = 0 } = sluiceBounds()
  const records = []

  for (let i = 0; i < length; i++) {
    const record = decodeRecord(recordsDecoderToRead, recordContext)
    for (const key in record.headers) {
      const value = record.headers[key]
      spent += headerCost * (Array.isArray(value) ? value.length : 1)
    }
    if (spent > limit) throw overBound(bound, \`its records' headers cost more than the fetch's bound leaves room for (\${limit} bytes)\`)
    records.push(record)
  }

  if (bound) bound.spend(spent)
  return records
}

/** Past a batch's own bound the batch is unreadable; past only what this fetch has left, it waits for the next fetch. */
const overBound = (bound, message) => {
  const e = new Error(message)
  if (bound && !bound.final) e.name = 'SluiceFetchBudget'
  return e
}`;
const BATCH_REQUIRE_BEFORE = `const TimestampTypes = require('../../timestampTypes')
`;
const BATCH_REQUIRE_AFTER = `const TimestampTypes = require('../../timestampTypes')
${BOUNDS}
`;

const MESSAGES_BEFORE = `  if (magicByte === MAGIC_BYTE) {
    const records = []

    while (messagesDecoder.canReadBytes(RECORD_BATCH_OVERHEAD)) {
      try {
        const recordBatch = await RecordBatchDecoder(messagesDecoder)
        records.push(...recordBatch.records)
      } catch (e) {
        // The tail of the record batches can have incomplete records
        // due to how maxBytes works. See https://cwiki.apache.org/confluence/display/KAFKA/A+Guide+To+The+Kafka+Protocol#AGuideToTheKafkaProtocol-FetchAPI
        if (e.name === 'KafkaJSPartialMessageError') {
          break
        }

        throw e
      }
    }

    return records
  }`;
const MESSAGES_AFTER = `  if (magicByte === MAGIC_BYTE) {
    const records = []
    // ${BOUNDS_MARKER}: the response's budget (every partition's decodeMessages gets the response's
    // decoder) and this partition's; the first batch of a partition may take a whole batch's bound
    // whatever the response has left (kafkajs asks for the partitions in one fixed order: a budget
    // spent by the first ones would starve the last ones for as long as the first have a backlog),
    // later ones only what is left of both. A batch past that ends the partition's records here:
    // the next fetch starts at it.
    const { maxDecompressedBytes = Infinity, maxFetchDecompressedBytes = Infinity } = sluiceBounds()
    const response = decoder.sluiceFetchBudget || (decoder.sluiceFetchBudget = { left: maxFetchDecompressedBytes })
    let partitionLeft = maxDecompressedBytes

    while (messagesDecoder.canReadBytes(RECORD_BATCH_OVERHEAD)) {
      const first = records.length === 0
      const limit = first ? maxDecompressedBytes : Math.min(partitionLeft, response.left)
      if (limit <= 0) {
        break
      }

      try {
        const spend = n => {
          partitionLeft -= n
          response.left -= n
        }
        const recordBatch = await RecordBatchDecoder(messagesDecoder, { limit, final: first, spend })
        for (const record of recordBatch.records) {
          records.push(record)
        }
      } catch (e) {
        // The tail of the record batches can have incomplete records
        // due to how maxBytes works. See https://cwiki.apache.org/confluence/display/KAFKA/A+Guide+To+The+Kafka+Protocol#AGuideToTheKafkaProtocol-FetchAPI
        if (e.name === 'KafkaJSPartialMessageError' || e.name === 'SluiceFetchBudget') {
          break
        }

        throw e
      }
    }

    return records
  }`;

const MESSAGES_REQUIRE_BEFORE = `const { MAGIC_BYTE } = require('../../../recordBatch/v0')\n`;
const MESSAGES_REQUIRE_AFTER = `const { MAGIC_BYTE } = require('../../../recordBatch/v0')\n${BOUNDS}\n`;

const LAST_OFFSET_BEFORE = `    if (this.isEmptyDueToLogCompactedMessages()) {
      return this.fetchedOffset
    }`;
const LAST_OFFSET_AFTER = `    if (this.isEmptyDueToLogCompactedMessages()) {
      // ${BOUNDS_MARKER}: past the end of the last batch read (a compacted batch keeps its last offset):
      // every record it held at or after the fetch offset was compacted away. kafkajs moved one offset
      // a fetch, and a batch after it that the fetch's budget left for the next fetch came only after
      // thousands of fetches, each inflating the compacted batch again.
      const { batchContext } = this.rawMessages[this.rawMessages.length - 1]
      const batchEnd = batchContext ? Long.fromValue(batchContext.firstOffset).add(batchContext.lastOffsetDelta) : null
      return batchEnd && Long.fromValue(this.fetchedOffset).lessThan(batchEnd) ? batchEnd.toString() : this.fetchedOffset
    }`;

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

const PRODUCER_MARKER = 'sluice-patch v1';
const GROUP_BEFORE = `  return messages.reduce((result, message) => {
    const partition = partitioner({ topic, partitionMetadata, message })
    const current = result[partition] || []
    return Object.assign(result, { [partition]: [...current, message] })
  }, {})`;
const GROUP_AFTER = `  // ${PRODUCER_MARKER}: each message appended to its partition's list, not the list copied per message
  const result = {}
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message })
    ;(result[partition] || (result[partition] = [])).push(message)
  }
  return result`;

/** Each file, the marker its patched text holds, and the edits that patch kafkajs's own text. */
const FILES = [
  {
    path: 'src/protocol/recordBatch/record/v0/decoder.js', marker: BOUNDS_MARKER,
    edits: [[HEADERS_BEFORE, HEADERS_AFTER], [HEADERS_REQUIRE_BEFORE, HEADERS_REQUIRE_AFTER], [HEADERS_BOUNDED_BEFORE, HEADERS_BOUNDED_AFTER], [HEADERS_RETURN_BEFORE, HEADERS_RETURN_AFTER]],
  },
  {
    path: 'src/protocol/recordBatch/v0/decoder.js', marker: BOUNDS_MARKER,
    edits: [
      [BATCH_IMPORT_BEFORE, BATCH_IMPORT_AFTER], [BATCH_BEFORE, BATCH_AFTER], [BATCH_REQUIRE_BEFORE, BATCH_REQUIRE_AFTER], [BATCH_ENTRY_BEFORE, BATCH_ENTRY_AFTER],
      [BATCH_CALL_BEFORE, BATCH_CALL_AFTER], [BATCH_CATCH_BEFORE, BATCH_CATCH_AFTER], [BATCH_READ_BEFORE, BATCH_READ_AFTER],
    ],
  },
  { path: 'src/protocol/requests/fetch/v4/decodeMessages.js', marker: BOUNDS_MARKER, edits: [[MESSAGES_REQUIRE_BEFORE, MESSAGES_REQUIRE_AFTER], [MESSAGES_BEFORE, MESSAGES_AFTER]] },
  { path: 'src/consumer/batch.js', marker: BOUNDS_MARKER, edits: [[LAST_OFFSET_BEFORE, LAST_OFFSET_AFTER]] },
  { path: 'src/consumer/runner.js', marker: CONSUMER_MARKER, edits: [[RUNNER_BEFORE, RUNNER_AFTER]] },
  { path: 'src/consumer/fetchManager.js', marker: CONSUMER_MARKER, edits: [[FETCH_MANAGER_BEFORE, FETCH_MANAGER_AFTER]] },
  { path: 'src/producer/groupMessagesPerPartition.js', marker: PRODUCER_MARKER, edits: [[GROUP_BEFORE, GROUP_AFTER]] },
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
      // Applied by an older version of this patch: the edits after it build on its text.
      if (text.includes(after)) continue;
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
