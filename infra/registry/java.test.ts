import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRegistryJava, jdkRoots, type JavaLookup, type VersionOutput } from './java.ts';

const versionText = (v: string): string => `openjdk version "${v}" 2025-04-15\nOpenJDK Runtime Environment (build ${v})\n`;

/** A machine: JDK homes with their `-version`, what /usr/lib/jvm (or the macOS roots) list, and `java` on PATH. */
function machine(p: {
  env?: Record<string, string>;
  platform?: NodeJS.Platform;
  jdks?: Record<string, string>;
  dirs?: Record<string, string[]>;
  onPath?: string;
}): JavaLookup & { probed: string[] } {
  const binaries = new Map(Object.entries(p.jdks ?? {}).map(([home, v]) => [path.join(home, 'bin', 'java'), v]));
  const probed: string[] = [];
  return {
    probed,
    env: p.env ?? {},
    platform: p.platform ?? 'linux',
    home: '/home/u',
    listDir: (dir) => p.dirs?.[dir] ?? [],
    isFile: (file) => binaries.has(file),
    async version(java): Promise<VersionOutput> {
      probed.push(java);
      const v = java === 'java' ? p.onPath : binaries.get(java);
      return v === undefined ? { ok: false, reason: `command not found: ${java}` } : { ok: true, output: versionText(v) };
    },
  };
}

const J17 = '/usr/lib/jvm/java-17-openjdk-amd64';
const J21 = '/usr/lib/jvm/java-21-openjdk-amd64';
const T25 = '/usr/lib/jvm/temurin-25-jdk-amd64';
const linuxDirs = { '/usr/lib/jvm': ['java-17-openjdk-amd64', 'temurin-25-jdk-amd64', 'java-21-openjdk-amd64', 'openjdk-17', 'java-1.17.0-openjdk-amd64'] };

describe('findRegistryJava', () => {
  it('takes SLUICE_REGISTRY_JAVA_HOME first, over a newer JDK and JAVA_HOME', async () => {
    const m = machine({ env: { SLUICE_REGISTRY_JAVA_HOME: J21, JAVA_HOME: T25 }, jdks: { [J21]: '21.0.5', [T25]: '25.0.1' }, dirs: linuxDirs });
    expect(await findRegistryJava(m)).toEqual({ java: `${J21}/bin/java`, major: 21, from: 'SLUICE_REGISTRY_JAVA_HOME' });
  });

  it('refuses a SLUICE_REGISTRY_JAVA_HOME that is too old or has no bin/java, rather than looking elsewhere', async () => {
    const old = machine({ env: { SLUICE_REGISTRY_JAVA_HOME: J17 }, jdks: { [J17]: '17.0.15', [T25]: '25.0.1' }, dirs: linuxDirs });
    await expect(findRegistryJava(old)).rejects.toThrow(/SLUICE_REGISTRY_JAVA_HOME=\/usr\/lib\/jvm\/java-17-openjdk-amd64 is not a Java 21\+ .*Java 17/);
    const missing = machine({ env: { SLUICE_REGISTRY_JAVA_HOME: '/opt/nothing' }, jdks: { [T25]: '25.0.1' }, dirs: linuxDirs });
    await expect(findRegistryJava(missing)).rejects.toThrow(/SLUICE_REGISTRY_JAVA_HOME=\/opt\/nothing has no bin\/java/);
  });

  it('uses JAVA_HOME when it is 21+', async () => {
    const m = machine({ env: { JAVA_HOME: J21 }, jdks: { [J21]: '21.0.5', [T25]: '25.0.1' }, dirs: linuxDirs });
    expect(await findRegistryJava(m)).toMatchObject({ java: `${J21}/bin/java`, major: 21, from: 'JAVA_HOME' });
  });

  it('passes over a JAVA_HOME older than 21 to the newest installed JDK', async () => {
    const m = machine({ env: { JAVA_HOME: J17 }, jdks: { [J17]: '17.0.15', [J21]: '21.0.5', [T25]: '25.0.1' }, dirs: linuxDirs, onPath: '17.0.15' });
    expect(await findRegistryJava(m)).toEqual({ java: `${T25}/bin/java`, major: 25, from: `${T25}/bin/java` });
    expect(m.probed).not.toContain('java'); // PATH is the last resort
  });

  it('skips installed directories without bin/java, and an unreadable version', async () => {
    const m = machine({ jdks: { [J17]: '17.0.15', [J21]: 'garbage' }, dirs: linuxDirs, onPath: '22' });
    expect(await findRegistryJava(m)).toEqual({ java: 'java', major: 22, from: 'PATH' });
    expect(m.probed).not.toContain('/usr/lib/jvm/openjdk-17/bin/java');
  });

  it('reads old-style 1.x versions as their minor (1.8 is Java 8)', async () => {
    const m = machine({ jdks: { '/usr/lib/jvm/java-8': '1.8.0_392' }, dirs: { '/usr/lib/jvm': ['java-8'] } });
    await expect(findRegistryJava(m)).rejects.toThrow(/java-8\/bin\/java: Java 8/);
  });

  it('finds macOS JDKs under Contents/Home', async () => {
    const home = '/Library/Java/JavaVirtualMachines/temurin-21.jdk/Contents/Home';
    const m = machine({ platform: 'darwin', jdks: { [home]: '21.0.2' }, dirs: { '/Library/Java/JavaVirtualMachines': ['temurin-21.jdk'] } });
    expect(await findRegistryJava(m)).toMatchObject({ java: `${home}/bin/java`, major: 21 });
    expect(jdkRoots('darwin', '/Users/u').map((r) => r.dir)).toEqual(['/Library/Java/JavaVirtualMachines', '/Users/u/Library/Java/JavaVirtualMachines']);
  });

  it('says what it found and what to install or set when nothing is 21+', async () => {
    const m = machine({ env: { JAVA_HOME: J17 }, jdks: { [J17]: '17.0.15' }, dirs: linuxDirs });
    const err = await findRegistryJava(m).then(
      () => expect.fail('found a Java 21+ where there is none'),
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err.code).toBe('PREREQUISITE_MISSING');
    expect(err.message).toContain('needs Java 21 or newer');
    expect(err.message).toContain(`${J17}/bin/java (JAVA_HOME): Java 17`);
    expect(err.message).toContain('java (PATH): command not found: java');
    expect(err.message).toMatch(/set SLUICE_REGISTRY_JAVA_HOME/);
    expect(err.message).toMatch(/SCHEMA_REGISTRY_URL/);
  });
});
