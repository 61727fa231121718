/*
 * Issue 43's client measurement, the native side: librdkafka 2.15.1's preview share consumer (the
 * build the librdkafka engine's binding makes) drains `count` records of `topic` in share group
 * `group`, accepting each (implicit acknowledgement), and prints one JSON line: records, wall ms
 * from the first record to the last acknowledgement, CPU ms of this process. Built and run by
 * bench/share-clients.ts; not part of Sluice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "rdkafka.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double cpu_ms(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: rdkafka-share BOOTSTRAP TOPIC GROUP COUNT MAX_POLL_RECORDS\n");
    return 2;
  }
  char err[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", argv[1], err, sizeof err) ||
      rd_kafka_conf_set(conf, "group.id", argv[3], err, sizeof err) ||
      rd_kafka_conf_set(conf, "max.poll.records", argv[5], err, sizeof err)) {
    fprintf(stderr, "conf: %s\n", err);
    return 1;
  }
  rd_kafka_share_t *share = rd_kafka_share_consumer_new(conf, err, sizeof err);
  if (!share) {
    fprintf(stderr, "new: %s\n", err);
    return 1;
  }
  rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, argv[2], RD_KAFKA_PARTITION_UA);
  rd_kafka_share_subscribe(share, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  long want = atol(argv[4]), got = 0, polls = 0;
  double first = 0, cpu0 = 0, started = now_ms();
  while (got < want && now_ms() - started < 120000) {
    rd_kafka_messages_t *batch = NULL;
    rd_kafka_error_t *error = rd_kafka_share_poll(share, 500, &batch);
    polls++;
    if (error) {
      fprintf(stderr, "poll: %s\n", rd_kafka_error_string(error));
      rd_kafka_error_destroy(error);
    } else {
      size_t n = rd_kafka_messages_count(batch);
      for (size_t i = 0; i < n; i++) {
        rd_kafka_message_t *m = rd_kafka_messages_get(batch, i);
        if (m->err) continue;
        if (got++ == 0) {
          first = now_ms();
          cpu0 = cpu_ms();
        }
      }
    }
    rd_kafka_messages_destroy(batch);
  }
  rd_kafka_topic_partition_list_t *committed = NULL;
  rd_kafka_error_t *e = rd_kafka_share_commit_sync(share, 10000, &committed);
  if (e) rd_kafka_error_destroy(e);
  if (committed) rd_kafka_topic_partition_list_destroy(committed);
  double end = now_ms(), cpu = cpu_ms() - cpu0;
  printf("{\"records\":%ld,\"ms\":%.1f,\"cpuMs\":%.1f,\"polls\":%ld}\n", got, end - first, cpu, polls);
  rd_kafka_share_consumer_close(share);
  rd_kafka_share_destroy(share);
  return got < want ? 1 : 0;
}
