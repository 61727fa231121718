/**
 * Parsing of the JSON state files the local services write (broker.json, registry.json): every
 * field the state type names must be there with its kind, anything else in the file is dropped.
 * Pure; infra/process-state.ts does the reading and writing.
 */

/** The kind of each field of a state, checked by the compiler against the state's type. */
export type FieldKinds<T> = {
  [K in keyof T]-?: T[K] extends number ? 'int' : T[K] extends string ? 'string' : never;
};

/** The state in `text`, or undefined for anything that is not a state we wrote. */
export function parseJsonState<T>(text: string, fields: FieldKinds<T>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // a torn or hand-edited file is treated as stale state, and replaced
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const state: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(fields) as Array<[string, 'int' | 'string']>) {
    const field = v[name];
    if (kind === 'int' ? !Number.isInteger(field) : typeof field !== 'string') return undefined;
    state[name] = field;
  }
  return state as T;
}
