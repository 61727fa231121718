/** How the page writes times, durations, sizes and Kafka coordinates. Times are local HH:MM:SS.mmm. */

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Local wall-clock time with milliseconds: 14:03:07.125. */
export function clock(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** The full date, for a title attribute beside a clock(). */
export function fullTime(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clock(ms)}`;
}

/** A Kafka record timestamp (epoch ms as a string) as a clock, or the string as it came. */
export function recordTime(timestamp: string): { text: string; title: string } {
  const ms = Number(timestamp);
  if (timestamp !== '' && Number.isFinite(ms)) return { text: clock(ms), title: fullTime(ms) };
  return { text: timestamp, title: '' };
}

/** 850 ms, 1.2 s, 30 s, 4m 10s, 1h 02m. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${trim((abs / 1000).toFixed(1))} s`;
  const s = Math.floor(abs / 1000);
  if (s < 3600) return `${sign}${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  return `${sign}${Math.floor(s / 3600)}h ${pad(Math.floor(s / 60) % 60)}m`;
}

/** Seconds with one decimal, for a running clock: 0.3 s, 12.0 s. */
export function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

function trim(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${trim((n / 1024).toFixed(1))} KiB`;
  return `${trim((n / 1024 / 1024).toFixed(1))} MiB`;
}

export function count(n: number | undefined): string {
  return n === undefined ? '—' : n.toLocaleString('en-US');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** 120–149, or 120 for one record. */
export function offsets(first: number, last: number): string {
  return first === last ? String(first) : `${first}–${last}`;
}

/** Kafka's topic-partition: orders-2. */
export function topicPartition(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/** A rate with sensible precision: 0.2, 12.4, 1,250. */
export function rate(n: number): string {
  if (n === 0) return '0';
  if (n < 10) return trim(n.toFixed(1));
  return Math.round(n).toLocaleString('en-US');
}
