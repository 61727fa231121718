/** Log tails for error messages and `cli.ts logs`. */
import { readFile } from 'node:fs/promises';
import { tailLines, type InstancePaths } from './config.ts';

const TAIL_LINES = 30;

/** The last lines of server.log and kafka.out, with their paths, for error messages. */
export async function logTails(paths: Pick<InstancePaths, 'logFile' | 'outFile'>, lines = TAIL_LINES): Promise<string> {
  const parts: string[] = [];
  for (const file of [paths.logFile, paths.outFile]) {
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    parts.push(text?.trim() ? `--- ${file} (last ${lines} lines) ---\n${tailLines(text, lines)}` : `--- ${file}: empty or missing ---`);
  }
  return parts.join('\n');
}
