import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputLines } from './output-lines.ts';

function linesOf(pieces: string[]): string[] {
  const lines: string[] = [];
  const out = new OutputLines((l) => lines.push(l));
  for (const p of pieces) out.write(p);
  out.end();
  return lines;
}

describe('OutputLines', () => {
  it("hands over each ended line at once, without its '\\n' or '\\r\\n', and the rest at the end", () => {
    const lines: string[] = [];
    const out = new OutputLines((l) => lines.push(l));
    out.write('one\ntw');
    expect(lines).toEqual(['one']);
    out.write('o\r');
    out.write('\nthree\r\n\nfour');
    expect(lines).toEqual(['one', 'two', 'three', '']);
    out.end();
    out.end();
    expect(lines).toEqual(['one', 'two', 'three', '', 'four']);
  });

  it('gives the lines of the whole text however it is cut into pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', '\n', '\r', ' '), { maxLength: 40 }), fc.array(fc.nat(40)), (chars, cuts) => {
        const text = chars.join('');
        const at = [...new Set(cuts.filter((c) => c < text.length))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((from, i) => text.slice(from, [...at, text.length][i]));
        const whole = text.split('\n').map((l, i, all) => (i < all.length - 1 && l.endsWith('\r') ? l.slice(0, -1) : l));
        if (whole.at(-1) === '') whole.pop();
        expect(linesOf(pieces)).toEqual(whole);
      }),
    );
  });

  it("keeps a line of 200,000 pieces without a '\\n' (a progress counter) as one line", () => {
    const pieces = Array.from({ length: 200_000 }, (_, i) => `\r${i} done`);
    expect(linesOf(pieces)).toEqual([pieces.join('')]);
  });
});
