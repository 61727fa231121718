/**
 * Pure: what the docs test (tests/docs/docs.test.ts) reads from a Markdown page: its fenced
 * snippets, each with the `<!-- not-run: <reason> -->` marker that may stand on the line before
 * its fence, its links, and the anchors its headings make (as GitHub makes them).
 */

export interface Snippet {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** Why it is not run here, when the page says so. */
  notRun?: string;
}

const MARKER = /^<!--\s*not-run:\s*(.+?)\s*-->\s*$/;

export function snippets(page: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${page}:${i + 1}: a fence that never closes`);
    const marker = i > 0 ? MARKER.exec(lines[i - 1]!) : null;
    out.push({ page, line: i + 1, lang: open[1]!, code: lines.slice(i + 1, end).join('\n'), ...(marker ? { notRun: marker[1]! } : {}) });
    i = end;
  }
  return out;
}

/** A marker that stands anywhere but right before a fence marks nothing: report it. */
export function strayMarkers(page: string, text: string): number[] {
  const lines = text.split('\n');
  return lines.flatMap((l, i) => (MARKER.test(l) && !/^```/.test(lines[i + 1] ?? '') ? [i + 1] : []));
}

export interface Link {
  page: string;
  line: number;
  target: string;
}

/** Markdown links outside fenced code and inline code spans. */
export function links(page: string, text: string): Link[] {
  const out: Link[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^```/.test(line)) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ page, line: i + 1, target: m[1]! });
  });
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const slug = h[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The commands of a shell snippet: comment-only and blank lines dropped, `\` continuations joined. */
export function commands(code: string): string[] {
  return code
    .replace(/\s*\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}
