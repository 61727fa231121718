/**
 * `node --import tsx bench/profile.ts [records] [batchSize]`: where a poller spends its CPU.
 * Starts the bench Kafka, preloads 1 KB records on 6 partitions, drains them with a no-op
 * handler in a poller process run with `--cpu-prof`, and prints each thread's busiest
 * functions by self time. The .cpuprofile files stay in .sluice/bench-profile/ (open them in
 * Chrome DevTools or speedscope for call trees).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startBenchBroker, stopBenchBroker } from './lib/broker.ts';
import { PollerChild } from './lib/child.ts';
import { summarizeDir } from './lib/cpu-profile.ts';
import { createTopic, kafkaClient, preload, uniqueName } from './lib/kafka.ts';
import { waitUntil } from './lib/stats.ts';

const records = Number(process.argv[2] ?? 300_000);
const batchSize = Number(process.argv[3] ?? 1_000);
const dir = join(REPO_ROOT, '.sluice', 'bench-profile');
const log = (line: string) => console.error(`[profile] ${line}`);

const broker = await startBenchBroker(log);
try {
  const kafka = kafkaClient([broker.bootstrap]);
  const topic = uniqueName('profile');
  await createTopic(kafka, topic, 6);
  await preload(kafka, topic, { records, partitions: 6, valueBytes: 1024 });
  rmSync(dir, { recursive: true, force: true });
  const poller = new PollerChild({ name: 'bench-profile', brokers: [broker.bootstrap], topic, groupId: uniqueName('profile-group'), batchSize, maximumBatchingWindowMs: 0, concurrency: 4 }, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await poller.ready;
  const started = performance.now();
  await waitUntil(`${records} records`, () => poller.records >= records, 300_000);
  const seconds = (performance.now() - started) / 1000;
  await poller.stop();
  log(`${records} records, batchSize ${batchSize}, in ${seconds.toFixed(1)} s (${Math.round(records / seconds)}/s, including the start); profiles in ${dir}`);
  for (const t of summarizeDir(dir, 15)) {
    if (t.busyMs < 200) continue;
    console.log(`\n${t.file.split('/').at(-1)}: ${(t.busyMs / 1000).toFixed(1)} s busy of ${(t.totalMs / 1000).toFixed(1)} s`);
    for (const f of t.top) console.log(`${f.ms.toFixed(0).padStart(7)} ms ${(100 * f.share).toFixed(1).padStart(5)}%  ${f.fn}`);
  }
} finally {
  await stopBenchBroker(log);
}
