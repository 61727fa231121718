/**
 * The records `produce` sends, from either front door's flags: sample records (--count), values
 * given on the command line, or JSON lines from --file or stdin (produce-input.ts), each with
 * --key and --header applied (a line's own key wins; its own headers follow --header's). A value that opens like JSON but does not parse is sent as text,
 * and the note says so.
 */
import { UsageError } from '../errors.ts';
import { commandLine } from '../front-door.ts';
import type { OutgoingRecord } from '../kafka/producer-port.ts';
import { readRecordLines } from './send-records.ts';

export interface ProduceFlags {
  key?: string | undefined;
  /** `name=value` each. */
  headers?: string[] | undefined;
  count?: string | undefined;
  values: string[];
  file?: string | undefined;
}

/** What produce says when it was given nothing to send, at the door in use. */
export function nothingToSend(): string {
  const example = commandLine('produce', `--topic <topic> '{"id":1}'`, `<topic> '{"id":1}'`);
  return `Nothing to send: give values after the options (${example}), --value, --count, --file <jsonl>, or pipe JSON lines into ${commandLine('produce', '--topic <topic>', '<topic>')}.`;
}

export async function recordsToSend(f: ProduceFlags, nothingToSend: string, note: (line: string) => void): Promise<OutgoingRecord[]> {
  const headers = (f.headers ?? []).map((h): [string, string] => {
    const eq = h.indexOf('=');
    if (eq <= 0) throw new UsageError(`--header "${h}": write it as name=value.`);
    return [h.slice(0, eq), h.slice(eq + 1)];
  });
  const common = { ...(f.key ? { key: f.key } : {}), headers };
  if (f.count !== undefined) {
    const n = Number(f.count);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--count ${f.count}: give a positive whole number.`);
    return Array.from({ length: n }, (_, i) => ({ ...common, value: JSON.stringify({ id: i + 1, amount: (i % 7) + 1, currency: i % 2 ? 'EUR' : 'USD', at: new Date().toISOString() }) }));
  }
  if (f.values.length) {
    for (const value of f.values) {
      const why = notQuiteJson(value);
      if (why) note(`note: ${JSON.stringify(value.slice(0, 60))} is sent as text: it looks like JSON but is not (${why}).`);
    }
    return f.values.map((value) => ({ ...common, value }));
  }
  // A line's own key wins; --key gives one to the lines without. --header comes before a line's own headers.
  return (await readRecordLines(f.file, nothingToSend)).map((r) => ({
    ...r,
    key: r.key ?? f.key ?? null,
    headers: [...headers, ...(r.headers ?? [])],
  }));
}

/** Why a value that opens like a JSON object or list does not parse, if it does not. */
function notQuiteJson(value: string): string | undefined {
  if (!/^\s*[[{]/.test(value)) return undefined;
  try {
    JSON.parse(value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
