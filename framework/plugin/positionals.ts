/**
 * The values a user gives after a `serverless sluice …` command's options (`serverless sluice
 * produce -t orders '{"id":1}' '{"id":2}'`), as `npm run produce -- orders '{"id":1}'` takes
 * them. osls reads them into its parser's `_` and deletes it before any plugin sees the options,
 * so they are read from argv again here, the way osls's parser (lib/cli/parse-args.js) reads it:
 * a string option takes the next argument unless that one looks like an option, `--name=value`
 * carries its own, `--` ends the options.
 */

import { UsageError } from '../errors.ts';

export interface OptionShape {
  type?: string;
  shortcut?: string;
}

/** As osls's lib/cli/param-reg-exp.js. */
const PARAM = /^-(?:-(?<fullName>[a-zA-Z][A-Za-z0-9:_-]+)|(?<aliasNames>[a-z]+))(?:=(?<value>.*)|$)/;

/** osls's own options every command takes (lib/cli/commands-schema/common-options): string unless said. */
export const OSLS_COMMON_OPTIONS: Record<string, OptionShape> = {
  region: { shortcut: 'r' }, 'aws-profile': {}, config: { shortcut: 'c' }, stage: { shortcut: 's' }, param: { type: 'multiple' },
  help: { type: 'boolean', shortcut: 'h' }, version: { type: 'boolean', shortcut: 'v' }, verbose: { type: 'boolean' }, debug: {},
};

/** The positional values after `command` (its words, e.g. ['sluice', 'produce']) in `argv`; none when the command is not there. */
export function positionalsAfter(command: readonly string[], argv: readonly string[], options: Record<string, OptionShape>): string[] {
  const at = argv.findIndex((_, i) => command.every((word, j) => argv[i + j] === word));
  if (at < 0) return [];
  const all = { ...OSLS_COMMON_OPTIONS, ...options };
  const byShortcut = new Map(Object.entries(all).flatMap(([name, o]) => (o.shortcut ? [[o.shortcut, name] as const] : [])));
  const takesValue = (name: string) => (all[name]?.type ?? 'string') !== 'boolean';
  const out: string[] = [];
  const args = argv.slice(at + command.length);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    // osls's parser stops at an empty argument (its loop reads `(arg = args[i])`): what follows is not an option to it.
    if (arg === '') throw new UsageError('an empty argument: osls stops reading options at it, so the options after it would be lost. Leave it out (an empty value can go in a JSON line on stdin: {"value":""}).');
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    const m = PARAM.exec(arg);
    if (!m) {
      out.push(arg);
      continue;
    }
    const { fullName, aliasNames, value } = m.groups!;
    if (value !== undefined || (aliasNames && aliasNames.length > 1)) continue;
    // --no-<name> is <name>: false to osls, and takes no value.
    if (fullName?.startsWith('no-')) continue;
    const name = fullName ?? byShortcut.get(aliasNames!) ?? aliasNames!;
    const next = args[i + 1];
    if (takesValue(name) && next !== undefined && next !== '' && next !== '--' && !PARAM.test(next)) i++;
  }
  return out;
}
