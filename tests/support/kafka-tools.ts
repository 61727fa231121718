/**
 * Kafka's own tools (kafka-tools, the same release as the broker), resolved from Maven Central
 * into the user's cache on first use (tests/support/kafka-tools/pom.xml), and run with the broker's
 * Java: the independent peers of Sluice's clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sluiceCacheRoot } from '../../infra/cache.ts';
import { KAFKA_VERSION } from '../../infra/kafka/broker.ts';
import { checkJava, ensureJars } from '../../infra/kafka/toolchain.ts';

const POM_DIR = fileURLToPath(new URL('./kafka-tools/', import.meta.url));
const LIB_DIR = path.join(sluiceCacheRoot(process.env), `kafka-tools-${KAFKA_VERSION}`);

/** Starts `mainClass` of kafka-tools with `args`; its output is the caller's to read. */
export async function runKafkaTool(mainClass: string, args: string[]): Promise<ChildProcess> {
  const java = await checkJava(process.env);
  await ensureJars({ kafkaDir: POM_DIR, libDir: LIB_DIR, version: KAFKA_VERSION, expect: `kafka-tools-${KAFKA_VERSION}`, log: (line) => console.log(`[kafka-tools] ${line}`) });
  const classpath = readdirSync(LIB_DIR).filter((f) => f.endsWith('.jar')).map((f) => path.join(LIB_DIR, f)).join(path.delimiter);
  return spawn(java, ['-Xmx256m', '-cp', classpath, mainClass, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}
