import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sluiceCustomSchema, sluiceEventSchema } from '../../framework/config/schema.ts';
import { REFERENCE_COMMAND, REFERENCE_PAGE, renderReference } from './reference.ts';

/** Every property path a schema accepts, found by a walk of its own (through anyOf and list items too). */
function paths(schema: unknown, prefix = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] };
  const own = Object.entries(s.properties ?? {}).flatMap(([name, p]) => [`${prefix}${name}`, ...paths(p, `${prefix}${name}.`)]);
  const items = s.items ? paths(s.items, `${prefix.replace(/\.$/, '')}[].`) : [];
  const branches = (s.anyOf ?? []).flatMap((b) => paths(b, prefix));
  return [...new Set([...own, ...items, ...branches])];
}

/** The keys in the first column of the page's table under `heading`. */
function documented(page: string, heading: string): string[] {
  const section = page.split(/^## /m).find((s) => s.startsWith(heading)) ?? '';
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

describe('docs/reference.md', () => {
  it('is what the schema generates', () => {
    const committed = readFileSync(REFERENCE_PAGE, 'utf8');
    expect(committed === renderReference(), `docs/reference.md differs from the schema (framework/config/schema.ts): run \`${REFERENCE_COMMAND}\` and commit the page`).toBe(true);
  });

  it('lists every key the schema accepts, and only those', () => {
    const page = readFileSync(REFERENCE_PAGE, 'utf8');
    expect(documented(page, 'The `sluice` event').sort()).toEqual(paths(sluiceEventSchema).sort());
    expect(documented(page, '`custom.sluice`').sort()).toEqual(paths(sluiceCustomSchema).sort());
  });
});
