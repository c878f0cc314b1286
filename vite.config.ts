import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressConsole } from './server/console/consoleAssets.ts';
import { writeSignInPage } from './server/console/signInPage.ts';

const apiPort = Number(process.env.PORT ?? 8080);

/** The route modules of the sign-in screen, the first screen of most visits. */
const SIGN_IN_SCREEN = ['src/layout/GuestLayout.tsx', 'src/auth/LoginScreen.tsx'];

/**
 * Links in index.html to the sign-in screen's chunks and styles, so the browser fetches them beside the entry
 * instead of after it has run (its lazy routes would otherwise start a second round trip). A signed-in visitor
 * fetches them too, a few KB, cached for good.
 */
function preloadSignInScreen(): Plugin {
  return {
    name: 'preload-sign-in-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return [];
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const scripts = new Set<string>();
        const styles = new Set<string>();
        const add = (fileName: string) => {
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          if (!chunk || scripts.has(fileName) || fileName === entry.fileName || entry.imports.includes(fileName))
            return;
          scripts.add(fileName);
          chunk.viteMetadata?.importedCss.forEach((css) => styles.add(css));
          chunk.imports.forEach(add);
        };
        for (const module of SIGN_IN_SCREEN) {
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`No chunk for ${module}: is it still a lazy route?`);
          add(chunk.fileName);
        }
        return [
          ...[...scripts].map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
          ...[...styles].map((file) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

/** V8's explicit compile hint: every function of a file so marked is compiled as the file loads, off the main thread. */
const COMPILE_ALL_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Marks the chunks of `modules` (paths from the project's root) for eager compilation. Their code runs as soon as they
 * are used (a list's first render calls most of the list screen): compiled lazily, each function would be compiled
 * on the main thread at its first call, inside the render a person waits for; the chunks themselves load ahead, while
 * the browser is idle.
 */
function compileEagerly(modules: readonly string[]): Plugin {
  return {
    name: 'compile-eagerly',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk' || !modules.some((module) => output.facadeModuleId?.endsWith(module))) continue;
          output.code = `${COMPILE_ALL_HINT}\n${output.code}`;
          // The map is written from its own asset, emitted already: its lines move down one too.
          const map = bundle[`${output.fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const parsed = JSON.parse(map.source) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
        }
      },
    },
  };
}

/**
 * The page of /auth/login (server/console/signInPage.ts): the built index.html with the sign-in screen rendered to
 * HTML in it, so that the form can be used before the console's code has arrived.
 */
function prerenderSignIn(define: Record<string, string>): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'prerender-sign-in',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: { sequential: true, handler: () => writeSignInPage(root, outDir, define) },
  };
}

/**
 * Brotli and gzip copies of the built files, made once here so that the server sends them without compressing; last,
 * once every page is written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress-console',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressConsole(outDir);
      },
    },
  };
}

/**
 * React Router 7's package exports only its development build (remix-run/react-router#12532, #14102): checks and
 * warnings on every render of every link. The console's build takes the production build beside it instead.
 */
function reactRouterProductionBuild() {
  const folder = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');
  return [
    { find: /^react-router$/, replacement: join(folder, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: join(folder, 'dom-export.mjs') },
  ];
}

/**
 * The development mailbox screen (/dev/mailbox) is in the dev server's console and in a build asked for with
 * CONSOLE_DEV_MAILBOX=true (what `npm start` does when not in production); any other build, `npm run build` included,
 * leaves it out entirely: `__DEV_MAILBOX__` is false there, so its route and chunk are dropped.
 */
export default defineConfig(({ command }) => {
  const define = {
    __DEV_MAILBOX__: JSON.stringify(command === 'serve' || process.env.CONSOLE_DEV_MAILBOX === 'true'),
  };
  return {
    define,
    plugins: [
      react(),
      preloadSignInScreen(),
      compileEagerly(['src/screens/generic/ListScreen.tsx']),
      prerenderSignIn(define),
      precompress(),
    ],
    resolve: command === 'build' ? { alias: reactRouterProductionBuild() } : {},
    build: {
      outDir: 'dist',
      // bench/bundle/run.mjs reads dist/.vite/manifest.json to size the initial JS and each area chunk.
      manifest: true,
      sourcemap: true,
      // Vite adds <link rel="modulepreload"> for the entry's static imports only; area chunks stay lazy (ROUTE-06).
      modulePreload: { polyfill: false },
    },
    server: {
      port: 5173,
      proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
    },
  };
});
