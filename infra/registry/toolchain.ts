/**
 * The registry's files: Apicurio Registry's Quarkus fast-jar tree (quarkus-run.jar with lib/,
 * app/, quarkus/), unpacked once from Maven Central by `mvn dependency:unpack` (infra/registry/pom.xml)
 * into the user's cache beside the Kafka jars, marked complete with .resolved-<version>.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { moveIntoPlace, resolveOnce, sluiceCacheRoot, stagingFor } from '../cache.ts';
import { tailLines } from '../kafka/config.ts';
import { CommandNotFoundError, runCapture } from '../kafka/run.ts';

const MVN_TIMEOUT_MS = 15 * 60_000;
const USE_EXISTING = 'or set SCHEMA_REGISTRY_URL to the Confluent API of an existing schema registry to start none';
/** What a complete unpack holds; quarkus-run.jar alone cannot start without the rest. */
const FAST_JAR_TREE = ['quarkus-run.jar', 'lib', 'app', 'quarkus'];

/** `<cache>/apicurio-registry-<version>`, the cache root as for the Kafka jars (infra/cache.ts). */
export function registryDistDir(version: string, env: Record<string, string | undefined>): string {
  return path.join(sluiceCacheRoot(env), `apicurio-registry-${version}`);
}

/** Makes sure distDir holds the registry for `version`; runs mvn in pomDir only the first time. */
export function ensureRegistryDist(p: { pomDir: string; distDir: string; version: string; log: (line: string) => void }): Promise<void> {
  return resolveOnce(p.distDir, () => resolve(p));
}

async function resolve(p: { pomDir: string; distDir: string; version: string; log: (line: string) => void }): Promise<void> {
  const marker = path.join(p.distDir, `.resolved-${p.version}`);
  if (existsSync(marker)) return;
  p.log(`Resolving Apicurio Registry ${p.version} from Maven Central (first run only, ~150 MB)…`);
  const started = Date.now();
  // Unpacked beside the cache entry and renamed into place when complete: the cache is shared by
  // every checkout and service of the user, so a second start meanwhile never sees half a tree.
  const staging = stagingFor(p.distDir);
  const markers = `${staging}.markers`; // the plugin's bookkeeping, kept out of the checkout
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const args = ['-q', '-B', 'dependency:unpack', `-Dregistry.outputDirectory=${staging}`, `-Dregistry.markersDirectory=${markers}`];
  try {
    let result;
    try {
      result = await runCapture('mvn', args, { cwd: p.pomDir, timeoutMs: MVN_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof CommandNotFoundError) {
        throw new Error(`The local schema registry is resolved from Maven Central with Maven, but \`mvn\` was not found. Install Maven 3.8+ (e.g. \`apt-get install maven\` or \`brew install maven\`), ${USE_EXISTING}.`, { cause: err });
      }
      throw err;
    }
    if (result.code !== 0) {
      const output = tailLines(`${result.stdout}\n${result.stderr}`.trim(), 30);
      throw new Error(`\`mvn ${args.join(' ')}\` failed in ${p.pomDir} (exit ${result.code ?? result.signal}). Check network access to Maven Central and the pom, ${USE_EXISTING}.\n${output}`);
    }
    const missing = FAST_JAR_TREE.filter((name) => !existsSync(path.join(staging, name)));
    if (missing.length > 0) {
      throw new Error(`mvn finished but the unpacked Apicurio Registry ${p.version} lacks ${missing.join(', ')}; check infra/registry/pom.xml (io.apicurio:apicurio-registry-app:${p.version}:tar.gz:all).`);
    }
    await writeFile(path.join(staging, path.basename(marker)), `${new Date().toISOString()}\n`);
    // Another start may have resolved it meanwhile: then its entry stays and ours goes.
    if (!(await moveIntoPlace(staging, p.distDir, path.basename(marker)))) return;
    p.log(`Resolved Apicurio Registry ${p.version} into ${p.distDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(markers, { recursive: true, force: true });
  }
}
