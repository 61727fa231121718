import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ccompatUrl, instanceMarker, parseRegistryState, parseRegistryVersion, readyUrl, registryJvmArgs, registryPaths, resolveRegistryConfig,
} from './config.ts';
import { registryDistDir } from './toolchain.ts';

describe('resolveRegistryConfig', () => {
  it('defaults to <cwd>/.sluice/registry on 28081, management on the next port', () => {
    expect(resolveRegistryConfig({}, {}, '/svc')).toEqual({ instanceDir: path.resolve('/svc/.sluice/registry'), port: 28081, managementPort: 28082, startTimeoutMs: 60_000, persistent: false });
  });

  it('takes SLUICE_REGISTRY_PORT and SLUICE_REGISTRY_DIR, and explicit options over both', () => {
    const env = { SLUICE_REGISTRY_PORT: '28500', SLUICE_REGISTRY_DIR: 'tmp/r' };
    expect(resolveRegistryConfig({}, env, '/svc')).toMatchObject({ instanceDir: path.resolve('/svc/tmp/r'), port: 28500, managementPort: 28501 });
    expect(resolveRegistryConfig({ port: 28181, managementPort: 28190, instanceDir: '/x' }, env, '/svc')).toMatchObject({ instanceDir: '/x', port: 28181, managementPort: 28190 });
  });

  it('names what to fix when a setting is unusable', () => {
    expect(() => resolveRegistryConfig({}, { SLUICE_REGISTRY_PORT: 'abc' }, '/svc')).toThrow(/SLUICE_REGISTRY_PORT must be a TCP port/);
    expect(() => resolveRegistryConfig({}, { SLUICE_REGISTRY_PORT: '80' }, '/svc')).toThrow(/SLUICE_REGISTRY_PORT must be an integer between 1024 and 65535/);
    expect(() => resolveRegistryConfig({ port: 28181, managementPort: 28181 }, {}, '/svc')).toThrow(/managementPort must differ/);
    expect(() => resolveRegistryConfig({ startTimeoutMs: 5 }, {}, '/svc')).toThrow(/startTimeoutMs must be at least 1000/);
  });
});

describe('the registry JVM command line', () => {
  const paths = registryPaths('/svc/.sluice/registry');
  const args = registryJvmArgs({ distDir: '/cache/apicurio-registry-3.3.3', paths, port: 28181, managementPort: 28182, heap: '384m' });

  it('listens on loopback only, HTTP and management on their ports, BACKWARD by default', () => {
    expect(args).toEqual(expect.arrayContaining([
      '-Xmx384m',
      '-Dquarkus.http.host=127.0.0.1', '-Dquarkus.http.port=28181',
      '-Dquarkus.management.host=127.0.0.1', '-Dquarkus.management.port=28182',
      '-Dapicurio.rules.global.compatibility=BACKWARD',
      `-Djava.io.tmpdir=${path.join('/svc/.sluice/registry', 'tmp')}`,
    ]));
  });

  it('names its instance (for the pid check) and ends with the fast jar', () => {
    expect(args).toContain(instanceMarker('/svc/.sluice/registry'));
    expect(args.slice(-2)).toEqual(['-jar', path.join('/cache/apicurio-registry-3.3.3', 'quarkus-run.jar')]);
  });

  it('keeps the schemas in memory unless persistent, then in an H2 file under the instance', () => {
    expect(args.some((a) => a.startsWith('-Dapicurio.datasource.url='))).toBe(false);
    const persistent = registryJvmArgs({ distDir: '/cache/apicurio-registry-3.3.3', paths, port: 28181, managementPort: 28182, heap: '384m', persistent: true });
    expect(persistent).toContain(`-Dapicurio.datasource.url=jdbc:h2:file:${path.join('/svc/.sluice/registry', 'data', 'registry')}`);
  });

  it('serves the Confluent API under /apis/ccompat/v7 and readiness on the management port', () => {
    expect(ccompatUrl(28181)).toBe('http://127.0.0.1:28181/apis/ccompat/v7');
    expect(readyUrl(28182)).toBe('http://127.0.0.1:28182/health/ready');
  });
});

describe('the cache entry', () => {
  it('sits beside the Kafka jars in the user cache', () => {
    expect(registryDistDir('3.3.3', { SLUICE_CACHE_DIR: '/c' })).toBe(path.join('/c', 'apicurio-registry-3.3.3'));
    expect(registryDistDir('3.3.3', { XDG_CACHE_HOME: '/x' })).toBe(path.join('/x', 'sluice', 'apicurio-registry-3.3.3'));
  });
});

describe('parseRegistryVersion', () => {
  it('reads <registry.version> and says what to add when it is missing', () => {
    expect(parseRegistryVersion('<properties>\n  <registry.version> 3.3.3 </registry.version>')).toBe('3.3.3');
    expect(() => parseRegistryVersion('<project/>')).toThrow(/add one, e.g. <registry.version>/);
  });
});

describe('parseRegistryState', () => {
  const state = { pid: 42, url: 'http://127.0.0.1:28181/apis/ccompat/v7', port: 28181, managementPort: 28182, version: '3.3.3', startedAt: '2026-12-01T00:00:00.000Z' };

  it('round-trips what registry.ts writes', () => {
    expect(parseRegistryState(JSON.stringify(state))).toEqual(state);
  });

  it('treats torn, foreign or partial files as no state', () => {
    expect(parseRegistryState('{"pid": 4')).toBeUndefined();
    expect(parseRegistryState('null')).toBeUndefined();
    expect(parseRegistryState(JSON.stringify({ ...state, managementPort: '28182' }))).toBeUndefined();
    expect(parseRegistryState(JSON.stringify({ ...state, url: undefined }))).toBeUndefined();
  });
});
