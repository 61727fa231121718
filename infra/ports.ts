/**
 * The TCP ports of the local services: an explicit option wins over its environment variable,
 * which wins over the default, and a port that cannot be used names what to fix. Pure.
 */

/** `explicit` ?? the port in env[envName] ?? `defaultPort`, checked; errors name the option or the variable. */
export function resolvePort(explicit: number | undefined, env: Record<string, string | undefined>, envName: string, defaultPort: number): number {
  const envPort = env[envName];
  const port = explicit ?? (envPort ? parsePort(envPort, envName, defaultPort) : defaultPort);
  checkPort(port, explicit === undefined && envPort ? envName : 'port', defaultPort);
  return port;
}

/** The service's second port (controller, management): `port + 1` unless given, never `port` itself. */
export function secondPort(explicit: number | undefined, port: number, name: string, example: number): number {
  const second = explicit ?? port + 1;
  checkPort(second, name, example);
  if (second === port) throw new Error(`${name} must differ from port (both are ${port}); leave ${name} unset to use port + 1.`);
  return second;
}

function parsePort(text: string, name: string, example: number): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n)) throw new Error(`${name} must be a TCP port number (got "${text}"), e.g. ${name}=${example}.`);
  return n;
}

/** Unprivileged ports only: 1024-65535. */
function checkPort(port: number, name: string, example: number): void {
  if (!Number.isInteger(port) || port < 1024 || port > 65535) {
    throw new Error(`${name} must be an integer between 1024 and 65535 (got ${port}), e.g. ${example}.`);
  }
}
