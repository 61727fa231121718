/** Review (aa684e8): what the docs say of the console's cost is what the bench run they cite measured. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
const performance = read('docs/performance.md');
const cited = /The whole scenario, [^(]*\(`(bench\/results\/[^`]+\.json)`/.exec(performance)![1]!;
type Pair = { cpuCost: number };
const run = JSON.parse(read(cited)) as {
  figures: Array<{ figure: string; value: string }>;
  details: { console: Record<string, { sideBySide: { measured: Pair[]; same: Pair[] } }> };
};

it('performance.md: the blank tab\'s "cost" it gives as the noise\'s reach is at least what the run it cites for it measured', () => {
  const [, claimed, file] = /a blank browser tab, which does nothing, "cost" up to (\d+(?:\.\d+)?)% \(`(bench\/results\/[^`]+\.json)`\)/.exec(performance)!;
  const blankRun = JSON.parse(read(file!)) as typeof run;
  const measured = blankRun.figures.filter((f) => f.figure.includes('blank page: cost')).map((f) => Number.parseFloat(f.value));
  expect(measured.length).toBeGreaterThan(0);
  expect(Number(claimed)).toBeGreaterThanOrEqual(Math.max(...measured));
});

it('local-development.md: says the console pair differs from the baseline by no more than two baselines do only if the cited run shows it', () => {
  const text = read('docs/local-development.md');
  const claims = text.includes('differ by no more than two without it do');
  // The widest difference of a console pair against the widest of the baseline beside itself, at each batch size.
  const widest = (pairs: Pair[]) => Math.max(...pairs.map((p) => Math.abs(p.cpuCost)));
  const beyond = Object.values(run.details.console).filter((b) => b?.sideBySide).some((b) => widest(b.sideBySide.measured) > widest(b.sideBySide.same));
  expect(claims && beyond).toBe(false);
});
