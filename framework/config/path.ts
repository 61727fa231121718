/** Paths into the serverless.yml document, written the way messages show them: `functions.orders.events[0].sluice`. */
export type PathSegment = string | number;

export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` in `doc`, or undefined; numeric strings index arrays (`events.0`). */
export function getAt(doc: unknown, path: readonly PathSegment[]): unknown {
  let current = doc;
  for (const segment of path) {
    if (Array.isArray(current)) {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      current = Number.isInteger(index) ? current[index] : undefined;
    } else if (isPlainObject(current)) {
      current = Object.hasOwn(current, segment) ? current[String(segment)] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

/** A value for a message: JSON, cut to a readable length. */
export function showValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
