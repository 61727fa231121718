/**
 * A decoded value as JSON text: Buffers as base64 (not Node's {"type":"Buffer"} form), BigInts
 * with every digit (JSON.stringify refuses them; Node 20 has no JSON.rawJSON). A BigInt is
 * first written as a string marked with a per-process token, then unquoted.
 */
import { randomBytes } from 'node:crypto';

const TOKEN = `bigint-${randomBytes(6).toString('hex')}:`;
const MARKED = new RegExp(`"${TOKEN}(-?\\d+)"`, 'g');

export function toJsonText(value: unknown): string {
  let marked = false;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const original = this[key];
    if (Buffer.isBuffer(original) || original instanceof Uint8Array) return Buffer.from(original).toString('base64');
    if (typeof original === 'bigint') {
      marked = true;
      return `${TOKEN}${original.toString()}`;
    }
    return v;
  });
  return marked ? text.replace(MARKED, '$1') : text;
}
