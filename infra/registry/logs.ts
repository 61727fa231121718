/** The tail of the registry's log, for error messages and `npm run registry -- logs`. */
import { readFile } from 'node:fs/promises';
import { tailLines } from '../kafka/config.ts';

export async function registryLogTail(logFile: string, lines = 30): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  return text?.trim() ? `--- ${logFile} (last ${lines} lines) ---\n${tailLines(text, lines)}` : `--- ${logFile}: empty or missing ---`;
}
