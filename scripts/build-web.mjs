// Bundles the portal's and the console's pages into dist/web, where the server reads them: each
// page's script with what it imports (uPlot from node_modules among it) as one file, minified, and
// the style sheets beside it. Run by `npm run build`, so that nothing is fetched from a CDN at run
// time and the pages' Content-Security-Policy can allow this server's own files only.
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const PAGES = ['portal', 'console'];

export async function buildWeb() {
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(PAGES.map((page) => [`${page}/${page}`, `web/${page}/${page}.js`])),
    outdir: 'dist/web',
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  for (const page of PAGES) {
    mkdirSync(`${root}/dist/web/${page}`, { recursive: true });
    copyFileSync(`${root}/web/${page}/index.html`, `${root}/dist/web/${page}/index.html`);
    copyFileSync(`${root}/web/shared/web.css`, `${root}/dist/web/${page}/web.css`);
    copyFileSync(`${root}/node_modules/uplot/dist/uPlot.min.css`, `${root}/dist/web/${page}/uplot.css`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
