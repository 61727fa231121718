#!/usr/bin/env node
// Sluice's patch of @confluentinc/kafka-javascript 1.10.1 and the librdkafka 2.15.1 it builds
// (docs/failures.md, "On the librdkafka engine"), applied at install by package.json's postinstall
// after the binding built itself, and checked when a librdkafka member starts
// (framework/kafka/rdkafka/patched.ts). No setting of either reaches these four:
//
// 1. librdkafka inflates a gzip record batch whole, however large (it measures the output in a first
//    pass, then allocates it), and grows an LZ4 batch's buffer without a limit: one batch of the
//    topic's max.message.bytes (1 MiB by default) inflated to about a GiB. Every codec (gzip, LZ4,
//    zstd, snappy) now stops at SLUICE_RDKAFKA_MAX_DECOMPRESSED_BYTES (Sluice's maxDecompressedBytes;
//    unset, receive.message.max.bytes, zstd's bound before), tries that size itself when its
//    guesses grow past it, and the batch is a decompression error.
// 2. The binding dropped a partition's consume error (a batch that did not decompress): the poll
//    failed with the bare code, or not at all when records came before it in the same poll, and
//    librdkafka fetched the batch again for ever. It is now handed over in its place among the
//    records, with its topic, partition and the batch's last offset (the error's text names the
//    first), for Sluice to send the batch to the destination and seek past it.
// 3. The binding copied every record's key and value into the JS heap, however large. Past
//    SLUICE_RDKAFKA_MAX_RECORD_BYTES (key and value together) neither is copied: the record carries
//    `sluiceLetGo` (its size) instead, and Sluice sends it to the destination as BatchUnreadable.
// 4. The binding built one JS object per header on the poller's thread, however many: 16 records of
//    62,500 headers blocked it 2.1 s in one poll. Past SLUICE_RDKAFKA_MAX_HEADERS headers or
//    SLUICE_RDKAFKA_MAX_HEADER_BYTES bytes of them none is built: the record carries
//    `sluiceHeadersOverLimit` (what it has), and Sluice sends it on as HeadersOverLimit.
//
// The bounds are read from the environment (Sluice sets them before it loads the binding): 1's as
// each batch decompresses, 3's and 4's when the first record converts. Unset, all is as it was. The patched
// sources are rebuilt in place: the build the binding's own install made is reused, so only the
// changed files compile (seconds). A binding installed prebuilt (downloaded, no build) cannot be
// patched here: `npm rebuild @confluentinc/kafka-javascript --build-from-source` builds it, and
// this script runs again after it (`node node_modules/serverless-sluice/infra/patches/librdkafka.mjs`).
//
// Idempotent; refuses any other version; never fails an install (the engine is optional): it says
// what it could not do, and a librdkafka member says it again when it starts.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const MARKER = 'sluice-patch v3';
const VERSION = '1.10.1';
/** Written next to the binary once it is rebuilt with the patch; the member reads it. */
export const STAMP = 'sluice-patch.json';

export const EDITS = [
  {
    // The one bound every codec inflates to at most. Not receive.message.max.bytes, which is also the
    // largest fetch response librdkafka accepts: a batch past it on the wire (a topic whose
    // max.message.bytes is larger) made librdkafka drop the connection and fetch again for ever.
    file: 'deps/librdkafka/src/rdkafka_int.h',
    before: `#endif /* _RDKAFKA_INT_H_ */`,
    after: `/* ${MARKER}: what one record batch may decompress to: SLUICE_RDKAFKA_MAX_DECOMPRESSED_BYTES,
 * else receive.message.max.bytes (as zstd's bound was) */
static RD_INLINE RD_UNUSED size_t
rd_kafka_sluice_max_decompressed(const rd_kafka_t *rk) {
        const char *bound = getenv("SLUICE_RDKAFKA_MAX_DECOMPRESSED_BYTES");
        unsigned long long n = bound ? strtoull(bound, NULL, 10) : 0;
        return n ? (size_t)n : (size_t)rk->rk_conf.recv_max_msg_size;
}

#endif /* _RDKAFKA_INT_H_ */`,
  },
  {
    file: 'deps/librdkafka/src/rdgz.h',
    before: `void *rd_gz_decompress(const void *compressed,`,
    after: `/* ${MARKER}: the bounded variant, stopping past max_out bytes of output (0: no bound) */
void *rd_gz_decompress_max(const void *compressed,
                           int compressed_len,
                           uint64_t *decompressed_lenp,
                           uint64_t max_out);
void *rd_gz_decompress(const void *compressed,`,
  },
  {
    file: 'deps/librdkafka/src/rdgz.c',
    before: `void *rd_gz_decompress(const void *compressed,
                       int compressed_len,
                       uint64_t *decompressed_lenp) {
        int pass           = 1;`,
    after: `void *rd_gz_decompress(const void *compressed,
                       int compressed_len,
                       uint64_t *decompressed_lenp) {
        return rd_gz_decompress_max(compressed, compressed_len,
                                    decompressed_lenp, 0);
}

/* ${MARKER}: the first pass gives up once the output passes max_out */
void *rd_gz_decompress_max(const void *compressed,
                           int compressed_len,
                           uint64_t *decompressed_lenp,
                           uint64_t max_out) {
        int pass           = 1;`,
  },
  {
    file: 'deps/librdkafka/src/rdgz.c',
    before: `                        if (pass == 2) {
                                /* Advance output pointer (in pass 2). */`,
    after: `                        if (pass == 1 && max_out &&
                            strm.total_out > max_out) {
                                inflateEnd(&strm);
                                goto fail;
                        }

                        if (pass == 2) {
                                /* Advance output pointer (in pass 2). */`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_msgset_reader.c',
    before: `                iov.iov_base = rd_gz_decompress(compressed,
                                                (int)compressed_size, &outlenx);`,
    after: `                /* ${MARKER}: bounded */
                iov.iov_base = rd_gz_decompress_max(
                    compressed, (int)compressed_size, &outlenx,
                    (uint64_t)rd_kafka_sluice_max_decompressed(
                        msetr->msetr_rkb->rkb_rk));`,
  },
  {
    // The error names the batch's first offset; the record handed over carries its last.
    file: 'deps/librdkafka/src/rdkafka_msgset_reader.c',
    before: `                rd_kafka_consumer_err(
                    &msetr->msetr_rkq, msetr->msetr_broker_id, err,
                    msetr->msetr_tver->version, NULL, rktp, Offset,
                    "Decompression (codec 0x%x) of message at %" PRIu64
                    " of %" PRIusz " bytes failed: %s",
                    codec, Offset, compressed_size, rd_kafka_err2str(err));`,
    after: `                /* ${MARKER}: the batch's last offset, for the consumer to move past it */
                rd_kafka_consumer_err(
                    &msetr->msetr_rkq, msetr->msetr_broker_id, err,
                    msetr->msetr_tver->version, NULL, rktp,
                    msetr->msetr_v2_hdr
                        ? msetr->msetr_v2_hdr->BaseOffset +
                              msetr->msetr_v2_hdr->LastOffsetDelta
                        : Offset,
                    "Decompression (codec 0x%x) of message at %" PRIu64
                    " of %" PRIusz " bytes failed: %s",
                    codec, Offset, compressed_size, rd_kafka_err2str(err));`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_lz4.c',
    before: `                        size_t extra = RD_MAX(outlen * 3 / 4, 1024);
`,
    after: `                        size_t extra = RD_MAX(outlen * 3 / 4, 1024);

                        /* ${MARKER}: the buffer grows up to the bound, and
                         * more output than that is a batch that cannot be read */
                        const size_t max_out =
                            rd_kafka_sluice_max_decompressed(rkb->rkb_rk);
                        if (outlen >= max_out) {
                                err = RD_KAFKA_RESP_ERR__BAD_COMPRESSION;
                                goto done;
                        }
                        if (outlen + extra > max_out)
                                extra = max_out - outlen;
`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_lz4.c',
    before: `                estimated_uncompressed_size = (size_t)fi.contentSize;`,
    after: `                estimated_uncompressed_size = (size_t)fi.contentSize;

        /* ${MARKER}: a declared size past the bound is not allocated */
        if (estimated_uncompressed_size >
            rd_kafka_sluice_max_decompressed(rkb->rkb_rk)) {
                err = RD_KAFKA_RESP_ERR__BAD_COMPRESSION;
                goto done;
        }`,
  },
  {
    // Its buffer grew threefold a try and stopped once past the bound, so a batch between the last
    // size tried and the bound never decompressed (librdkafka's own #5260, biting at a lower bound).
    file: 'deps/librdkafka/src/rdkafka_zstd.c',
    before: `        case ZSTD_CONTENTSIZE_UNKNOWN:
                /* Decompressed size cannot be determined, make a guess */
                out_bufsize = inlen * 2;
                break;`,
    after: `        case ZSTD_CONTENTSIZE_UNKNOWN:
                /* Decompressed size cannot be determined, make a guess */
                out_bufsize = inlen * 2;
                /* ${MARKER}: a guess past the bound is the bound */
                if (out_bufsize > (unsigned long long)
                                      rd_kafka_sluice_max_decompressed(
                                          rkb->rkb_rk))
                        out_bufsize = rd_kafka_sluice_max_decompressed(
                            rkb->rkb_rk);
                break;`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_zstd.c',
    before: `        while (out_bufsize <=
               (unsigned long long)rkb->rkb_rk->rk_conf.recv_max_msg_size) {`,
    after: `        /* ${MARKER}: up to Sluice's bound */
        while (out_bufsize <= (unsigned long long)
                                  rd_kafka_sluice_max_decompressed(rkb->rkb_rk)) {`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_zstd.c',
    before: `                        /* Grow quadratically */
                        out_bufsize += RD_MAX(out_bufsize * 2, 4000);
`,
    after: `                        /* Grow quadratically */
                        unsigned long long tried = out_bufsize;
                        const unsigned long long max_out =
                            rd_kafka_sluice_max_decompressed(rkb->rkb_rk);
                        out_bufsize += RD_MAX(out_bufsize * 2, 4000);

                        /* ${MARKER}: the last try is the bound itself */
                        if (tried < max_out && out_bufsize > max_out)
                                out_bufsize = max_out;
`,
  },
  {
    // Snappy cannot pass about 21 times its input, but a topic's batches can be large: bounded too.
    file: 'deps/librdkafka/src/snappy.h',
    before: `char *rd_kafka_snappy_java_uncompress (const char *inbuf, size_t inlen,`,
    after: `/* ${MARKER}: the bounded variant, refusing output past max_out (0: no bound) */
char *rd_kafka_snappy_java_uncompress_max (const char *inbuf, size_t inlen,
                                           size_t *outlenp,
                                           char *errstr, size_t errstr_size,
                                           size_t max_out);
char *rd_kafka_snappy_java_uncompress (const char *inbuf, size_t inlen,`,
  },
  {
    file: 'deps/librdkafka/src/snappy.c',
    before: `char *rd_kafka_snappy_java_uncompress (const char *inbuf, size_t inlen,
                                       size_t *outlenp,
                                       char *errstr, size_t errstr_size) {
        int pass;`,
    after: `char *rd_kafka_snappy_java_uncompress (const char *inbuf, size_t inlen,
                                       size_t *outlenp,
                                       char *errstr, size_t errstr_size) {
        return rd_kafka_snappy_java_uncompress_max(inbuf, inlen, outlenp,
                                                   errstr, errstr_size, 0);
}

/* ${MARKER}: the first pass refuses a total past max_out */
char *rd_kafka_snappy_java_uncompress_max (const char *inbuf, size_t inlen,
                                           size_t *outlenp,
                                           char *errstr, size_t errstr_size,
                                           size_t max_out) {
        int pass;`,
  },
  {
    file: 'deps/librdkafka/src/snappy.c',
    before: `                if (pass == 1) {
                        if (uof <= 0) {`,
    after: `                if (pass == 1 && max_out && (size_t)uof > max_out) {
                        rd_snprintf(errstr, errstr_size,
                                    "Snappy-java framed data would "
                                    "decompress to %"PRIdsz" bytes, over %"
                                    PRIdsz, uof, (ssize_t)max_out);
                        return NULL;
                }

                if (pass == 1) {
                        if (uof <= 0) {`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_msgset_reader.c',
    before: `                        iov.iov_base = rd_kafka_snappy_java_uncompress(
                            inbuf, inlen, &iov.iov_len, errstr, sizeof(errstr));`,
    after: `                        /* ${MARKER}: bounded */
                        iov.iov_base = rd_kafka_snappy_java_uncompress_max(
                            inbuf, inlen, &iov.iov_len, errstr, sizeof(errstr),
                            rd_kafka_sluice_max_decompressed(
                                msetr->msetr_rkb->rkb_rk));`,
  },
  {
    file: 'deps/librdkafka/src/rdkafka_msgset_reader.c',
    before: `                        /* Allocate output buffer for uncompressed data */
                        iov.iov_base = rd_malloc(iov.iov_len);`,
    after: `                        /* ${MARKER}: a declared length past the bound is not allocated */
                        if (unlikely(iov.iov_len >
                                     rd_kafka_sluice_max_decompressed(
                                         msetr->msetr_rkb->rkb_rk))) {
                                err = RD_KAFKA_RESP_ERR__BAD_COMPRESSION;
                                goto err;
                        }

                        /* Allocate output buffer for uncompressed data */
                        iov.iov_base = rd_malloc(iov.iov_len);`,
  },
  {
    file: 'src/common.cc',
    before: `v8::Local<v8::Object> ToV8Object(RdKafka::Message *message,
                                bool include_payload,
                                bool include_headers) {
  if (message->err() == RdKafka::ERR_NO_ERROR) {
    v8::Local<v8::Object> pack = Nan::New<v8::Object>();
`,
    after: `// ${MARKER}: Sluice's bounds on what a record may cost the JS heap, from the environment (0: none)
static size_t SluiceBound(const char *name) {
  const char *value = getenv(name);
  return value ? static_cast<size_t>(strtoull(value, NULL, 10)) : 0;
}

struct SluiceBounds {
  size_t record_bytes, headers, header_bytes;
};

static const SluiceBounds &SluiceBoundsRead() {
  static const SluiceBounds bounds = {
      SluiceBound("SLUICE_RDKAFKA_MAX_RECORD_BYTES"),
      SluiceBound("SLUICE_RDKAFKA_MAX_HEADERS"),
      SluiceBound("SLUICE_RDKAFKA_MAX_HEADER_BYTES")};
  return bounds;
}

// Counts the record's headers (and, when their count is within its bound, their bytes) without
// building any; false, with what it counted on pack, past the bounds.
static bool SluiceHeadersWithin(RdKafka::Message *message,
                                v8::Local<v8::Object> pack) {
  const SluiceBounds &bounds = SluiceBoundsRead();
  if (!bounds.headers && !bounds.header_bytes) return true;
  rd_kafka_headers_t *hdrs = NULL;
  if (rd_kafka_message_headers(message->c_ptr(), &hdrs) !=
          RD_KAFKA_RESP_ERR_NO_ERROR || !hdrs)
    return true;
  size_t count = rd_kafka_header_cnt(hdrs);
  size_t bytes = 0;
  bool within = !bounds.headers || count <= bounds.headers;
  for (size_t i = 0; within && i < count; i++) {
    const char *name;
    const void *value;
    size_t size;
    if (rd_kafka_header_get_all(hdrs, i, &name, &value, &size) !=
        RD_KAFKA_RESP_ERR_NO_ERROR)
      break;
    bytes += strlen(name) + size;
  }
  within = within && (!bounds.header_bytes || bytes <= bounds.header_bytes);
  if (within) return true;
  v8::Local<v8::Object> over = Nan::New<v8::Object>();
  Nan::Set(over, Nan::New<v8::String>("count").ToLocalChecked(),
           Nan::New<v8::Number>(static_cast<double>(count)));
  Nan::Set(over, Nan::New<v8::String>("bytes").ToLocalChecked(),
           Nan::New<v8::Number>(static_cast<double>(bytes)));
  Nan::Set(pack, Nan::New<v8::String>("sluiceHeadersOverLimit").ToLocalChecked(), over);
  return false;
}

v8::Local<v8::Object> ToV8Object(RdKafka::Message *message,
                                bool include_payload,
                                bool include_headers) {
  if (message->err() == RdKafka::ERR_NO_ERROR) {
    v8::Local<v8::Object> pack = Nan::New<v8::Object>();

    // ${MARKER}: a record past the bound keeps its coordinates and size, not its bytes
    const size_t record_bytes = message->len() + message->key_len();
    const size_t record_bound = SluiceBoundsRead().record_bytes;
    if (record_bound && record_bytes > record_bound) {
      include_payload = false;
      include_headers = false;
      Nan::Set(pack, Nan::New<v8::String>("sluiceLetGo").ToLocalChecked(),
               Nan::New<v8::Number>(static_cast<double>(record_bytes)));
    }
`,
  },
  {
    file: 'src/common.cc',
    before: `    if (((headers = message->headers()) != 0) && include_headers) {`,
    after: `    if (include_headers && SluiceHeadersWithin(message, pack) &&
        ((headers = message->headers()) != 0)) {`,
  },
  {
    file: 'src/common.cc',
    before: `    const void* key_payload = message->key_pointer();

    if (key_payload) {`,
    after: `    const void* key_payload = message->key_pointer();

    if (key_payload && include_payload) {`,
  },
  {
    file: 'src/kafka-consumer.h',
    before: `  Baton Consume(int timeout_ms);`,
    after: `  // ${MARKER}: keep_batch_errors hands over a partition's unreadable batch as a message
  Baton Consume(int timeout_ms, bool keep_batch_errors = false);`,
  },
  {
    file: 'src/kafka-consumer.cc',
    before: `Baton KafkaConsumer::Consume(int timeout_ms) {`,
    after: `static bool SluiceBatchError(RdKafka::Message *message) {  // ${MARKER}
  switch (message->err()) {
    case RdKafka::ERR__BAD_COMPRESSION:
    case RdKafka::ERR__NOT_IMPLEMENTED:
    case RdKafka::ERR__BAD_MSG:
      return message->partition() >= 0 && !message->topic_name().empty();
    default:
      return false;
  }
}

Baton KafkaConsumer::Consume(int timeout_ms, bool keep_batch_errors) {`,
  },
  {
    file: 'src/kafka-consumer.cc',
    before: `         response_code != RdKafka::ERR__TIMED_OUT_QUEUE
       ) {`,
    after: `         response_code != RdKafka::ERR__TIMED_OUT_QUEUE &&
         !(keep_batch_errors && SluiceBatchError(message))
       ) {`,
  },
  {
    file: 'src/workers.cc',
    before: `    Baton b = m_consumer->Consume(timeout_ms);
    if (b.err() == RdKafka::ERR_NO_ERROR) {`,
    after: `    Baton b = m_consumer->Consume(timeout_ms, true);  // ${MARKER}
    if (b.err() == RdKafka::ERR_NO_ERROR) {`,
  },
  {
    file: 'src/workers.cc',
    before: `        default:
          // Set the error for any other errors and break`,
    after: `        case RdKafka::ERR__BAD_COMPRESSION:
        case RdKafka::ERR__NOT_IMPLEMENTED:
        case RdKafka::ERR__BAD_MSG:
          // ${MARKER}: a partition's record batch that could not be read
          // (Consume kept it) is handed over in its place, with its coordinates
          m_messages.push_back(message);
          looping = false;
          break;
        default:
          // Set the error for any other errors and break`,
  },
  {
    file: 'src/workers.cc',
    before: `          Nan::Set(returnArray, returnArrayIndex,
                   Conversion::Message::ToV8Object(message));
          break;
        case RdKafka::ERR__PARTITION_EOF:`,
    after: `          Nan::Set(returnArray, returnArrayIndex,
                   Conversion::Message::ToV8Object(message));
          break;
        default: {
          // ${MARKER}: the partition's unreadable batch, at its last offset
          v8::Local<v8::Object> failed = Nan::New<v8::Object>();
          v8::Local<v8::Object> error = Nan::New<v8::Object>();
          Nan::Set(error, Nan::New<v8::String>("code").ToLocalChecked(),
                   Nan::New<v8::Number>(message->err()));
          Nan::Set(error, Nan::New<v8::String>("message").ToLocalChecked(),
                   Nan::New<v8::String>(message->errstr()).ToLocalChecked());
          Nan::Set(failed, Nan::New<v8::String>("sluiceError").ToLocalChecked(), error);
          Nan::Set(failed, Nan::New<v8::String>("topic").ToLocalChecked(),
                   Nan::New<v8::String>(message->topic_name()).ToLocalChecked());
          Nan::Set(failed, Nan::New<v8::String>("partition").ToLocalChecked(),
                   Nan::New<v8::Number>(message->partition()));
          Nan::Set(failed, Nan::New<v8::String>("offset").ToLocalChecked(),
                   Nan::New<v8::Number>(message->offset()));
          Nan::Set(failed, Nan::New<v8::String>("size").ToLocalChecked(),
                   Nan::New<v8::Number>(0));
          Nan::Set(failed, Nan::New<v8::String>("value").ToLocalChecked(), Nan::Null());
          ++returnArrayIndex;
          Nan::Set(returnArray, returnArrayIndex, failed);
          break;
        }
        case RdKafka::ERR__PARTITION_EOF:`,
  },
];

function bindingDir() {
  try {
    return dirname(createRequire(import.meta.url).resolve('@confluentinc/kafka-javascript/package.json'));
  } catch {
    return undefined;
  }
}

/**
 * Applies the edits; returns the files changed now (none when patched already). A file is patched
 * whole or not at all: one carrying the marker must carry every edit (another version of this patch
 * asks for a fresh install of the binding), one without it must hold each part once.
 */
export function applyEdits(dir) {
  const changed = [];
  for (const file of new Set(EDITS.map((e) => e.file))) {
    const path = join(dir, file);
    const edits = EDITS.filter((e) => e.file === file);
    let text = readFileSync(path, 'utf8');
    if (text.includes(MARKER)) {
      if (edits.every((e) => text.includes(e.after))) continue;
      throw new Error(`${file} carries another version of Sluice's patch: reinstall the binding (rm -rf node_modules/@confluentinc/kafka-javascript, then npm install), which restores its sources`);
    }
    for (const edit of edits) {
      const at = text.indexOf(edit.before);
      if (at < 0 || text.indexOf(edit.before, at + 1) >= 0) throw new Error(`${file} is not as ${VERSION} ships it (a part Sluice patches was not found once)`);
      text = text.slice(0, at) + edit.after + text.slice(at + edit.before.length);
    }
    // Beside the original, then renamed over it: a store's hardlinked copy (pnpm) stays as it was.
    writeFileSync(`${path}.sluice-patch`, text);
    renameSync(`${path}.sluice-patch`, path);
    changed.push(path);
  }
  return changed;
}

/** Text only the patched sources put in each binary: librdkafka's (a snappy error) and the binding's (an environment name). */
const BUILT_MARKS = { librdkafka: 'Snappy-java framed data would', binding: 'SLUICE_RDKAFKA_MAX_RECORD_BYTES' };

/**
 * Rebuilds the binding where its install built it, compiling only what changed; 'dynamic' when it
 * links Debian's libraries. librdkafka installs itself into the folder it was configured for, which
 * is not this one when the tree was moved since (a copied node_modules): the library the binding
 * loads is copied from the build. Throws unless both binaries it loads carry the patch.
 */
function rebuild(dir) {
  const mk = readFileSync(join(dir, 'build/confluent-kafka-javascript.target.mk'), 'utf8');
  const linking = /librdkafka\.so|-lrdkafka/.test(mk) && !/librdkafka-static\.a|librdkafka\.a/.test(mk) ? 'dynamic' : 'static';
  execFileSync('make', ['-C', 'build', 'BUILDTYPE=Release'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CKJS_LINKING: linking } });
  const binding = join(dir, 'build/Release/confluent-kafka-javascript.node');
  let librdkafka = binding;
  if (linking === 'dynamic') {
    librdkafka = join(dir, 'build/deps/librdkafka.so.1');
    copyFileSync(join(dir, 'deps/librdkafka/src/librdkafka.so.1'), librdkafka);
  }
  if (!readFileSync(librdkafka).includes(BUILT_MARKS.librdkafka)) throw new Error(`the rebuilt ${librdkafka} does not carry the patch`);
  if (!readFileSync(binding).includes(BUILT_MARKS.binding)) throw new Error(`the rebuilt ${binding} does not carry the patch`);
  return linking;
}

function main() {
  const dir = bindingDir();
  if (!dir) return; // the engine is optional: nothing to patch
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const say = (line) => console.error(`sluice: ${line}`);
  if (version !== VERSION) return say(`@confluentinc/kafka-javascript ${version} is not the ${VERSION} Sluice patches: the librdkafka engine runs without its bounds (docs/failures.md)`);
  // Not built at all (an install with --ignore-scripts, or a build that failed): a member says what to install.
  if (!existsSync(join(dir, 'build/Release/confluent-kafka-javascript.node'))) return;
  if (!existsSync(join(dir, 'build/confluent-kafka-javascript.target.mk'))) {
    return say(`@confluentinc/kafka-javascript was installed prebuilt, so Sluice cannot patch it here and the librdkafka engine runs without its bounds. Build it from source (npm rebuild @confluentinc/kafka-javascript --build-from-source), then run node ${join(dirname(new URL(import.meta.url).pathname), 'librdkafka.mjs')}`);
  }
  const stamp = join(dir, 'build/Release', STAMP);
  try {
    const changed = applyEdits(dir);
    if (changed.length === 0 && existsSync(stamp)) return say(`@confluentinc/kafka-javascript at ${dir} is already patched (${MARKER})`);
    const started = Date.now();
    const linking = rebuild(dir);
    writeFileSync(stamp, `${JSON.stringify({ patch: MARKER, version, linking })}\n`);
    say(`patched @confluentinc/kafka-javascript ${version} (librdkafka's bounds, ${MARKER}): rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (e) {
    const stderr = e && e.stderr ? String(e.stderr).trim().split('\n').slice(-5).join('\n') : '';
    say(`could not patch @confluentinc/kafka-javascript: ${e.message}${stderr ? `\n${stderr}` : ''}\nThe librdkafka engine runs without its bounds (docs/failures.md).`);
  }
}

// Run as a script, also by a path with a space or through a symlink (pnpm, npm link): compared as real paths.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) main();
