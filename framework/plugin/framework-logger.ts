/**
 * Sluice's Logger interface on top of the framework's log utilities, so everything the poller
 * logs under `serverless sluice …` goes through osls (levels, --verbose, --debug, progress).
 * info is shown as notice: what `npm start` prints by default, `serverless sluice start` prints too.
 * Each line goes through printableIndented(), as observe/logger.ts's do.
 */
import { parseLevel, type LogFields, type Logger, type LogLevel } from '../observe/logger.ts';
import { printableIndented } from '../observe/printable.ts';
import type { FrameworkLog } from './serverless-api.ts';

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export function frameworkLogger(log: FrameworkLog, namespace = 'sluice', bound: LogFields = {}, level = parseLevel(process.env.SLUICE_LOG_LEVEL)): Logger {
  const emit = (at: LogLevel, message: string, fields: LogFields = {}) => {
    if (RANK[at] > RANK[level]) return;
    const rest = Object.entries({ ...bound, ...fields })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${formatValue(v)}`)
      .join(' ');
    const line = printableIndented(`[${namespace}] ${message}${rest ? '  ' + rest : ''}`);
    if (at === 'error') log.error(line);
    else if (at === 'warn') log.warning(line);
    else if (at === 'info') log.notice(line);
    else log.debug(line);
  };
  return {
    level,
    error: (m, f) => emit('error', m, f),
    warn: (m, f) => emit('warn', m, f),
    info: (m, f) => emit('info', m, f),
    debug: (m, f) => emit('debug', m, f),
    child: (ns, f = {}) => frameworkLogger(log, `${namespace}:${ns}`, { ...bound, ...f }, level),
  };
}

function formatValue(v: unknown): string {
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x instanceof Error ? x.message : x)) ?? String(v);
}
