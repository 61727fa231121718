import { describe, expect, it } from 'vitest';
import { anchors, commands, links, snippets, strayMarkers } from './snippets.ts';

const page = [
  '# Title',
  '',
  '<!-- not-run: needs an AWS account -->',
  '```sh',
  'npx serverless deploy   # deploys',
  '```',
  '',
  '```ts',
  'export const handler = () => {};',
  '```',
  'See [a](other.md#x-y), `[not](a-link.md)` and [b](#title).',
  '## What `x` does, and why?',
  '## What `x` does, and why?',
  '<!-- not-run: stray -->',
  'text',
].join('\n');

describe('the docs parser', () => {
  it('finds each fence with its language, code and marker', () => {
    expect(snippets('p.md', page)).toEqual([
      { page: 'p.md', line: 4, lang: 'sh', code: 'npx serverless deploy   # deploys', notRun: 'needs an AWS account' },
      { page: 'p.md', line: 8, lang: 'ts', code: 'export const handler = () => {};' },
    ]);
  });

  it('reports a marker that marks no fence', () => {
    expect(strayMarkers('p.md', page)).toEqual([14]);
  });

  it('finds links outside code, and makes anchors as GitHub does', () => {
    expect(links('p.md', page).map((l) => l.target)).toEqual(['other.md#x-y', '#title']);
    expect([...anchors(page)]).toEqual(['title', 'what-x-does-and-why', 'what-x-does-and-why-1']);
  });

  it('splits commands, dropping comments and joining continuations', () => {
    expect(commands('# a comment\nnpm start   # runs\n\nnpm run produce -- orders \\\n  \'{"id":1}\'')).toEqual([
      'npm start   # runs',
      'npm run produce -- orders \'{"id":1}\'',
    ]);
  });
});
