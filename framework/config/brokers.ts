/**
 * Broker lists: `["b1:9092", "b2:9092"]` or `"b1:9092, b2:9092"` -> `["b1:9092", "b2:9092"]`.
 * Entries are trimmed, empty ones dropped; each must be `host:port` with a port 1–65535
 * (IPv6 hosts in brackets: `[::1]:9092`).
 */
export interface ParsedBrokers {
  brokers: string[];
  /** One line per bad entry, in the `<where>: <what> (got <value>). <fix>` form. */
  problems: string[];
}

const BROKER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})$/;

/** `where` names the setting in messages: a path such as `custom.sluice.bootstrapServers`, or `KAFKA_BROKERS`. */
export function parseBrokers(value: string | readonly string[], where: string): ParsedBrokers {
  const entries = (typeof value === 'string' ? [value] : value)
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const fix = 'Write brokers as host:port, e.g. localhost:9092, separated by commas.';
  if (entries.length === 0) {
    return { brokers: [], problems: [`${where}: lists no broker (got ${JSON.stringify(value)}). ${fix}`] };
  }
  const problems = entries
    .filter((entry) => {
      const port = BROKER.exec(entry)?.[1];
      return port === undefined || Number(port) < 1 || Number(port) > 65535;
    })
    .map((entry) => `${where}: each broker must be host:port with a port 1–65535 (got ${JSON.stringify(entry)}). ${fix}`);
  return { brokers: problems.length === 0 ? entries : [], problems };
}
