/**
 * The console page: an HTML shell made here (with the page's token) and the script and styles
 * esbuild bundled at build time (infra/build/console.mjs → dist/console/). Nothing is fetched
 * from anywhere else, at build or at run time. Run from the sources (`npm start` in this
 * repository), the bundle is the one `npm install` built; one missing says how to build it.
 */
import { readFile } from 'node:fs/promises';

/** dist/console beside the compiled server (dist/framework/console/), or beside the sources' repository. */
const PLACES = [new URL('../../console/', import.meta.url), new URL('../../dist/console/', import.meta.url)];

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

export function consoleAssets() {
  const cache = new Map<string, Promise<Asset | undefined>>();
  const load = async (name: string): Promise<Asset | undefined> => {
    for (const dir of PLACES) {
      const body = await readFile(new URL(name, dir)).catch(() => undefined);
      if (body) return { type: TYPES[name]!, body };
    }
    return undefined;
  };
  return {
    /** `app.js` or `app.css`; undefined for any other name, or when the bundle was not built. */
    get(name: string): Promise<Asset | undefined> {
      if (!(name in TYPES)) return Promise.resolve(undefined);
      let p = cache.get(name);
      if (!p) {
        p = load(name);
        cache.set(name, p);
        // A bundle built after the start (npm run build) is found on the next request.
        void p.then((a) => a ?? cache.delete(name));
      }
      return p;
    },
  };
}

export function shellHtml(token: string, title: string): string {
  const attr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="sluice-token" content="${attr(token)}"><title>${attr(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/console/app.css"></head>` +
    '<body><div id="app"></div><script type="module" src="/console/app.js"></script></body></html>'
  );
}

export const NOT_BUILT = 'The console page is not built: run `npm run build` (npm install does it), then reload.';
