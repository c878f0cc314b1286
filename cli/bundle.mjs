// The CLI's TypeScript, bundled into one ES module by esbuild and kept in node_modules/.cache: a run then loads one
// file instead of transpiling some forty modules at start-up. The bundle is rebuilt whenever one of the files it was
// built from (every input esbuild reports, the manifest schema included) has changed, so it never runs stale code.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const entry = new URL('./main.ts', import.meta.url);
/** One bundle per project folder, so copies of the project sharing a node_modules never take each other's. */
export const cacheDir = new URL(
  `node_modules/.cache/admin-codegen/${createHash('sha256').update(root.href).digest('hex').slice(0, 16)}/`,
  root,
);
const bundleFile = new URL('cli.mjs', cacheDir);
const inputsFile = new URL('inputs.json', cacheDir);

/** The CLI's `main`, from the bundle, built first when missing or stale. */
export async function loadCli() {
  if (!(await isFresh())) await build();
  return import(bundleFile.href);
}

async function isFresh() {
  const recorded = await readFile(inputsFile, 'utf8').then(JSON.parse, () => null);
  if (!recorded) return false;
  // Synchronous on purpose: each stat is then microseconds, not a round trip through the thread pool.
  for (const [path, stamp] of Object.entries(recorded.inputs)) {
    const info = statSync(new URL(path, root), { throwIfNoEntry: false });
    if (!info || `${info.mtimeMs}:${info.size}` !== stamp) return false;
  }
  return true;
}

async function build() {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [fileURLToPath(entry)],
    absWorkingDir: fileURLToPath(root),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // main.ts finds the project root from its own place; keep that place in the bundle.
    define: { 'import.meta.url': JSON.stringify(entry.href) },
    plugins: [precompiledManifestShape],
  });
  const inputs = {};
  for (const path of Object.keys(result.metafile.inputs)) {
    const info = await stat(new URL(path, root));
    inputs[path] = `${info.mtimeMs}:${info.size}`;
  }
  await mkdir(cacheDir, { recursive: true });
  // Written under a name of its own, then renamed: two runs building at once never load a half-written bundle.
  const suffix = `.${process.pid}.tmp`;
  await writeFile(new URL(`cli.mjs${suffix}`, cacheDir), result.outputFiles[0].contents);
  await rename(new URL(`cli.mjs${suffix}`, cacheDir), bundleFile);
  await writeFile(new URL(`inputs.json${suffix}`, cacheDir), JSON.stringify({ inputs }));
  await rename(new URL(`inputs.json${suffix}`, cacheDir), inputsFile);
}

/** codegen/manifestShape.ts as ajv standalone code: the manifest schema compiled once per bundle, not once per run. */
const precompiledManifestShape = {
  name: 'precompiled-manifest-shape',
  setup(build) {
    build.onLoad({ filter: /[\\/]codegen[\\/]manifestShape\.ts$/ }, async (args) => {
      const { default: Ajv2020 } = await import('ajv/dist/2020.js');
      const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
      const { SHAPE_OPTIONS } = await importTypeScript(build.esbuild, args.path);
      const schemaFile = new URL('manifest/manifest.schema.json', root);
      const schema = JSON.parse(await readFile(schemaFile, 'utf8'));
      const ajv = new Ajv2020({ ...SHAPE_OPTIONS, code: { source: true, esm: true } });
      const code = standaloneCode(ajv, ajv.compile(schema));
      // ajv's standalone output require()s its run-time helpers even as ESM; import them instead.
      const helpers = new Set();
      const esm = code
        .replace(/^"use strict";/, '')
        .replace(/require\("(ajv\/dist\/runtime\/\w+)"\)/g, (_match, helper) => {
          helpers.add(helper);
          return helperName(helper);
        });
      const imports = [...helpers].map((helper) => `import ${helperName(helper)} from '${helper}.js';`).join('\n');
      return {
        contents: `${imports}\n${esm}\nexport const validateShape = validate;\n`,
        loader: 'js',
        watchFiles: [fileURLToPath(schemaFile)],
      };
    });
  },
};

function helperName(helper) {
  return `runtime_${helper.split('/').pop()}`;
}

/** A TypeScript module of the CLI, loaded as it is at build time (bundled on its own, packages left external). */
async function importTypeScript(esbuild, path) {
  const result = await esbuild.build({
    entryPoints: [path],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const file = new URL(`module.${process.pid}.mjs`, cacheDir);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(file, result.outputFiles[0].contents);
  try {
    return await import(file.href);
  } finally {
    await rm(file, { force: true });
  }
}
