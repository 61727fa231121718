/**
 * KRaft storage for the single local node: formatted once (when data/meta.properties is
 * missing) and reused across restarts, so topics and committed offsets survive `npm start` runs.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { clusterIdFromBytes, tailLines } from './config.ts';
import { runCapture } from './run.ts';

export function isFormatted(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'meta.properties'));
}

export function newClusterId(): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = clusterIdFromBytes(randomBytes(16));
    if (id !== undefined) return id;
  }
  throw new Error('could not generate a Kafka cluster id in 100 attempts'); // p(fail) = (1/64)^100
}

/**
 * `extraArgs`: more `format` options, e.g. `--add-scram …` (sasl.ts). A single node formats
 * itself as a standalone dynamic quorum; a cluster's nodes share `clusterId` and name their
 * voters in server.properties (static quorum), so they format without `--standalone`.
 */
export async function formatStorage(p: { java: string; libDir: string; serverProperties: string; log4jProperties: string; extraArgs?: string[]; clusterId?: string }): Promise<string> {
  const clusterId = p.clusterId ?? newClusterId();
  const args = [
    `-Dlog4j2.configurationFile=${p.log4jProperties}`,
    '-cp',
    path.join(p.libDir, '*'),
    'kafka.tools.StorageTool',
    'format',
    '-t',
    clusterId,
    '-c',
    p.serverProperties,
    ...(p.clusterId ? [] : ['--standalone']),
    ...(p.extraArgs ?? []),
  ];
  const result = await runCapture(p.java, args, { timeoutMs: 120_000 });
  if (result.code !== 0) {
    const output = tailLines(`${result.stdout}\n${result.stderr}`.trim(), 30);
    throw new Error(`Formatting Kafka storage failed (exit ${result.code ?? result.signal}) for ${p.serverProperties}:\n${output}`);
  }
  return clusterId;
}
