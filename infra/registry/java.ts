/**
 * Which Java runs the registry: Apicurio Registry 3 needs Java 21+, while the machine's default
 * `java` may be older (the Kafka broker is content with 17). In order: SLUICE_REGISTRY_JAVA_HOME
 * (must be 21+), JAVA_HOME if it is 21+, the newest 21+ JDK installed in the usual places, and
 * `java` on PATH if it is 21+. The file system and `java -version` are injected (JavaLookup), so
 * the choice is tested without the machine's JDKs; systemJavaLookup is the real one.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { SluiceError } from '../../framework/errors.ts';
import { parseJavaMajor } from '../kafka/config.ts';
import { runCapture } from '../kafka/run.ts';

export const MIN_REGISTRY_JAVA = 21;

export type VersionOutput = { ok: true; output: string } | { ok: false; reason: string };

export interface JavaLookup {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
  /** Names in a directory; [] when it does not exist. */
  listDir(dir: string): string[];
  isFile(file: string): boolean;
  /** What `<java> -version` printed, or why it could not run. */
  version(java: string): Promise<VersionOutput>;
}

export interface FoundJava {
  java: string;
  major: number;
  /** Where it was found, for logs: `SLUICE_REGISTRY_JAVA_HOME`, `JAVA_HOME`, a scanned directory, `PATH`. */
  from: string;
}

interface Probed { java: string; from: string; major: number | undefined; problem?: string }

/** The directories holding installed JDKs, each JDK's home one level below (macOS: .../Contents/Home). */
export function jdkRoots(platform: NodeJS.Platform, home: string): Array<{ dir: string; homeSuffix: string }> {
  if (platform === 'darwin') {
    return [
      { dir: '/Library/Java/JavaVirtualMachines', homeSuffix: path.join('Contents', 'Home') },
      { dir: path.join(home, 'Library', 'Java', 'JavaVirtualMachines'), homeSuffix: path.join('Contents', 'Home') },
    ];
  }
  if (platform === 'win32') return [];
  return [{ dir: '/usr/lib/jvm', homeSuffix: '' }];
}

export function javaIn(javaHome: string, platform: NodeJS.Platform): string {
  return path.join(javaHome, 'bin', platform === 'win32' ? 'java.exe' : 'java');
}

async function probe(lookup: JavaLookup, java: string, from: string): Promise<Probed> {
  const v = await lookup.version(java);
  if (!v.ok) return { java, from, major: undefined, problem: v.reason };
  const major = parseJavaMajor(v.output);
  return major === undefined ? { java, from, major, problem: `unreadable \`-version\` output: ${v.output.trim().split('\n')[0] ?? ''}` } : { java, from, major };
}

function describeProbe(p: Probed): string {
  return `${p.from === p.java ? p.java : `${p.java} (${p.from})`}: ${p.major === undefined ? p.problem : `Java ${p.major}`}`;
}

function installHint(): string {
  return `Install a JDK ${MIN_REGISTRY_JAVA}+ (e.g. \`apt-get install openjdk-21-jre-headless\`, \`brew install openjdk@21\`, or Temurin from https://adoptium.net) and set SLUICE_REGISTRY_JAVA_HOME to its home (the directory with bin/java); the Kafka broker keeps using JAVA_HOME. Or set SCHEMA_REGISTRY_URL to the Confluent API of an existing registry to start none.`;
}

/** The Java 21+ to run the registry with; rejects with what was found and what to install or set. */
export async function findRegistryJava(lookup: JavaLookup): Promise<FoundJava> {
  const ok = (p: Probed): p is Probed & { major: number } => p.major !== undefined && p.major >= MIN_REGISTRY_JAVA;
  const found = (p: Probed & { major: number }): FoundJava => ({ java: p.java, major: p.major, from: p.from });

  const explicit = lookup.env['SLUICE_REGISTRY_JAVA_HOME']?.trim();
  if (explicit) {
    const java = javaIn(explicit, lookup.platform);
    if (!lookup.isFile(java)) {
      throw new SluiceError('PREREQUISITE_MISSING', `SLUICE_REGISTRY_JAVA_HOME=${explicit} has no ${path.relative(explicit, java)}; point it at a JDK ${MIN_REGISTRY_JAVA}+ home (the directory with bin/java), or unset it to let Sluice look for one.`);
    }
    const p = await probe(lookup, java, 'SLUICE_REGISTRY_JAVA_HOME');
    if (ok(p)) return found(p);
    throw new SluiceError('PREREQUISITE_MISSING', `SLUICE_REGISTRY_JAVA_HOME=${explicit} is not a Java ${MIN_REGISTRY_JAVA}+ (${describeProbe(p)}); the schema registry (Apicurio Registry 3) needs ${MIN_REGISTRY_JAVA} or newer. ${installHint()}`);
  }

  const seen: Probed[] = [];
  const javaHome = lookup.env['JAVA_HOME']?.trim();
  if (javaHome && lookup.isFile(javaIn(javaHome, lookup.platform))) {
    const p = await probe(lookup, javaIn(javaHome, lookup.platform), 'JAVA_HOME');
    if (ok(p)) return found(p);
    seen.push(p);
  }

  const installed = jdkRoots(lookup.platform, lookup.home).flatMap(({ dir, homeSuffix }) =>
    [...lookup.listDir(dir)].sort().reverse().map((name) => javaIn(path.join(dir, name, homeSuffix), lookup.platform)),
  ).filter((java) => lookup.isFile(java));
  const scanned = await Promise.all(installed.map((java) => probe(lookup, java, java)));
  // Newest major wins; among equals, the first in (reverse) name order, so the choice is stable.
  const best = scanned.filter(ok).reduce<(Probed & { major: number }) | undefined>((a, b) => (a === undefined || b.major > a.major ? b : a), undefined);
  if (best) return found(best);
  seen.push(...scanned);

  const onPath = await probe(lookup, lookup.platform === 'win32' ? 'java.exe' : 'java', 'PATH');
  if (ok(onPath)) return found(onPath);
  seen.push(onPath);

  const roots = jdkRoots(lookup.platform, lookup.home).map((r) => r.dir);
  throw new SluiceError('PREREQUISITE_MISSING', [
    `The local schema registry (Apicurio Registry 3) needs Java ${MIN_REGISTRY_JAVA} or newer, and none was found (looked at JAVA_HOME, ${roots.length ? `${roots.join(', ')}, ` : ''}and \`java\` on PATH):`,
    ...seen.map((p) => `  - ${describeProbe(p)}`),
    installHint(),
  ].join('\n'));
}

export const systemJavaLookup: JavaLookup = {
  env: process.env,
  platform: process.platform,
  home: homedir(),
  listDir: (dir) => (existsSync(dir) ? readdirSync(dir) : []),
  isFile: (file) => existsSync(file) && statSync(file).isFile(),
  async version(java) {
    try {
      const r = await runCapture(java, ['-version'], { timeoutMs: 30_000 });
      return r.code === 0 ? { ok: true, output: r.stderr + r.stdout } : { ok: false, reason: `\`${java} -version\` exited with ${r.code ?? r.signal}` };
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
  },
};
