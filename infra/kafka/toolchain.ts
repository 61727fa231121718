/**
 * What the local broker needs on the machine: Java 17+ and the Kafka jars, resolved once from
 * Maven Central by `mvn` into the user's cache (kafkaLibDir, marked with .resolved-<version>).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { moveIntoPlace, resolveOnce, sluiceCacheRoot, stagingFor } from '../cache.ts';
import { parseJavaMajor, tailLines } from './config.ts';
import { CommandNotFoundError, runCapture } from './run.ts';

const MIN_JAVA = 17;
const MVN_TIMEOUT_MS = 15 * 60_000;
const USE_EXISTING = 'or set KAFKA_BROKERS=host:port to use an existing Kafka cluster instead of the local one';

/** `$SLUICE_CACHE_DIR`, else `$XDG_CACHE_HOME/sluice`, else `~/.cache/sluice`; then `kafka-<version>`. */
export function kafkaLibDir(version: string, env: Record<string, string | undefined>): string {
  return path.join(sluiceCacheRoot(env), `kafka-${version}`);
}

export function javaBinary(env: Record<string, string | undefined>): string {
  const home = env['JAVA_HOME'];
  if (home) {
    const candidate = path.join(home, 'bin', process.platform === 'win32' ? 'java.exe' : 'java');
    if (existsSync(candidate)) return candidate;
  }
  return 'java';
}

/** Resolves to the java binary to use; rejects with what to install when it is missing or too old. */
export async function checkJava(env: Record<string, string | undefined>): Promise<string> {
  const java = javaBinary(env);
  let output: string;
  try {
    const result = await runCapture(java, ['-version'], { timeoutMs: 30_000 });
    output = result.stderr + result.stdout;
  } catch (err) {
    if (err instanceof CommandNotFoundError) {
      throw new Error(`The local Kafka broker needs Java ${MIN_JAVA} or newer, but \`${java}\` was not found. Install a JDK ${MIN_JAVA}+ (e.g. \`apt-get install openjdk-17-jre-headless\` or \`brew install openjdk@17\`) and put it on PATH or set JAVA_HOME, ${USE_EXISTING}.`, { cause: err });
    }
    throw err;
  }
  const major = parseJavaMajor(output);
  if (major === undefined) {
    throw new Error(`Could not read the Java version from \`${java} -version\`:\n${output.trim()}\nInstall a JDK ${MIN_JAVA}+ and set JAVA_HOME to it, ${USE_EXISTING}.`);
  }
  if (major < MIN_JAVA) {
    throw new Error(`The local Kafka broker needs Java ${MIN_JAVA} or newer, but \`${java}\` is Java ${major}. Install a JDK ${MIN_JAVA}+ and set JAVA_HOME to it, ${USE_EXISTING}.`);
  }
  return java;
}

/**
 * Makes sure libDir holds the jars of the pom in kafkaDir for `version`; runs mvn only the first
 * time. `expect`: the jar whose absence means the resolution failed (the broker's, unless named).
 */
export function ensureJars(p: JarsToResolve): Promise<void> {
  return resolveOnce(p.libDir, () => resolve(p));
}

interface JarsToResolve {
  kafkaDir: string;
  libDir: string;
  version: string;
  log: (line: string) => void;
  expect?: string;
}

async function resolve(p: JarsToResolve): Promise<void> {
  const marker = path.join(p.libDir, `.resolved-${p.version}`);
  if (existsSync(marker)) return;
  p.log(`Resolving Apache Kafka ${p.version} from Maven Central (first run only)…`);
  const started = Date.now();
  // Resolved beside the cache entry and renamed into place when complete: the cache is shared by
  // every checkout and service of the user, so a second start meanwhile never sees half a classpath.
  const staging = stagingFor(p.libDir);
  await mkdir(staging, { recursive: true });
  const args = ['-q', '-B', 'dependency:copy-dependencies', `-DoutputDirectory=${staging}`, '-DincludeScope=runtime'];
  let jars: string[];
  try {
    let result;
    try {
      result = await runCapture('mvn', args, { cwd: p.kafkaDir, timeoutMs: MVN_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof CommandNotFoundError) {
        throw new Error(`The local Kafka broker is resolved from Maven Central with Maven, but \`mvn\` was not found. Install Maven 3.8+ (e.g. \`apt-get install maven\` or \`brew install maven\`), ${USE_EXISTING}.`, { cause: err });
      }
      throw err;
    }
    if (result.code !== 0) {
      const output = tailLines(`${result.stdout}\n${result.stderr}`.trim(), 30);
      throw new Error(`\`mvn ${args.join(' ')}\` failed in ${p.kafkaDir} (exit ${result.code ?? result.signal}). Check network access to Maven Central and the pom, ${USE_EXISTING}.\n${output}`);
    }
    jars = (await readdir(staging)).filter((f) => f.endsWith('.jar'));
    const expect = p.expect ?? `kafka_2.13-${p.version}`;
    if (!jars.some((f) => f.startsWith(expect))) {
      throw new Error(`mvn finished but resolved no ${expect}.jar (found ${jars.length} jars); check ${path.join(p.kafkaDir, 'pom.xml')}.`);
    }
    await writeFile(path.join(staging, path.basename(marker)), `${new Date().toISOString()}\n`);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  // Another start may have resolved them meanwhile: then its entry stays and ours goes.
  if (!(await moveIntoPlace(staging, p.libDir, path.basename(marker)))) return;
  p.log(`Resolved ${jars.length} jars in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
