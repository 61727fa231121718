/**
 * Namespaced, structured logs: `logger.info(message, fields)`. The level comes from
 * SLUICE_LOG_LEVEL (error | warn | info | debug, default info); SLUICE_LOG_FORMAT=json prints
 * one JSON object a line for machines, otherwise a compact human line on stderr. Messages and
 * fields often quote what a record or a handler chose (an error, a header name): every line is
 * printed through printable.ts, so none carries a terminal control, and a message's further
 * lines (a build error) are indented under it, so none passes for a log line.
 */
import { printableIndented, printableJson } from './printable.ts';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type LogFields = Record<string, unknown>;

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  child(namespace: string, fields?: LogFields): Logger;
  readonly level: LogLevel;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface LoggerOptions {
  level?: LogLevel;
  format?: 'text' | 'json';
  write?: (line: string) => void;
}

export function parseLevel(value: string | undefined): LogLevel {
  const v = (value ?? 'info').toLowerCase();
  return v in RANK ? (v as LogLevel) : 'info';
}

const OWN_KEYS = new Set(['time', 'level', 'namespace', 'message']);

export function createLogger(namespace = 'sluice', options: LoggerOptions = {}, bound: LogFields = {}): Logger {
  const level = options.level ?? parseLevel(process.env.SLUICE_LOG_LEVEL);
  const format = options.format ?? (process.env.SLUICE_LOG_FORMAT === 'json' ? 'json' : 'text');
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));

  const log = (at: LogLevel, message: string, fields: LogFields = {}) => {
    if (RANK[at] > RANK[level]) return;
    const all = { ...bound, ...fields };
    if (format === 'json') {
      // The line's own keys win: a field named like one (a broker's `message`) is kept as field_<name>.
      const fieldsOf = Object.fromEntries(Object.entries(all).map(([k, v]) => [OWN_KEYS.has(k) ? `field_${k}` : k, v]));
      write(printableJson(JSON.stringify({ time: new Date().toISOString(), level: at, namespace, message, ...fieldsOf }, jsonSafe)));
      return;
    }
    const time = new Date().toISOString().slice(11, 23);
    const rest = Object.entries(all)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${formatValue(v)}`)
      .join(' ');
    write(printableIndented(`${time} ${at.toUpperCase().padEnd(5)} [${namespace}] ${message}${rest ? '  ' + rest : ''}`));
  };

  return {
    level,
    error: (m, f) => log('error', m, f),
    warn: (m, f) => log('warn', m, f),
    info: (m, f) => log('info', m, f),
    debug: (m, f) => log('debug', m, f),
    child: (ns, f = {}) => createLogger(`${namespace}:${ns}`, { level, format, write }, { ...bound, ...f }),
  };
}

function formatValue(v: unknown): string {
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v, jsonSafe) ?? String(v);
}

function jsonSafe(_key: string, v: unknown): unknown {
  if (v instanceof Error) return { name: v.name, message: v.message };
  if (typeof v === 'bigint') return v.toString();
  return v;
}
