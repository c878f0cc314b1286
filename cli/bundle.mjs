// The CLI's TypeScript, bundled into one ES module by esbuild and kept in node_modules/.cache: a run then loads one
// file instead of transpiling some forty modules, and finding and compiling the packages every run needs, at start-up.
// The bundle is rebuilt whenever one of the files it was built from (every input esbuild reports, the manifest schema
// included, and the tools that precompute parts of it) has changed, so it never runs stale code.
import { Buffer } from 'node:buffer';
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const entry = new URL('./main.ts', import.meta.url);
/** One bundle per project folder, so copies of the project sharing a node_modules never take each other's. */
export const cacheDir = new URL(`node_modules/.cache/admin-codegen/${fnv1a64(root.href)}/`, root);
const bundleFile = new URL('cli.mjs', cacheDir);
const inputsFile = new URL('inputs.json', cacheDir);
/** Packages the CLI imports only on some paths (`plan`, an entity beyond plain fields): kept out of the bundle. */
const LOADED_ON_DEMAND = ['json-schema-to-typescript', 'tsx'];
/** Inputs esbuild does not see: this file, and the packages whose output the plugins below put in the bundle. */
const buildTools = [
  fileURLToPath(import.meta.url),
  ...['ajv', 'json-schema-to-typescript'].map((name) => createRequire(import.meta.url).resolve(`${name}/package.json`)),
].map((path) => relative(fileURLToPath(root), path));

/** A 64-bit FNV-1a hash in hex: a name for the folder without loading node:crypto, which costs a run more than it. */
function fnv1a64(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

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
    // Every run loads ajv and commander: bundled, they are one file to read rather than a hundred to find, read and
    // compile. Packages only some runs need stay outside, loaded from node_modules when asked for.
    external: LOADED_ON_DEMAND,
    // What is bundled from CommonJS require()s Node's own modules; an ES module has no require of its own.
    banner: {
      js: "import { createRequire as createBundledRequire } from 'node:module';\nconst require = createBundledRequire(import.meta.url);",
    },
    write: false,
    metafile: true,
    logLevel: 'silent',
    // main.ts finds the project root from its own place; keep that place in the bundle.
    define: { 'import.meta.url': JSON.stringify(entry.href) },
    plugins: [precompiledManifestShape, precomputedManifestTypes],
  });
  const inputs = {};
  for (const path of [...Object.keys(result.metafile.inputs), ...buildTools]) {
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
      // ajv's standalone output require()s its run-time helpers even as ESM; esbuild bundles them as any require().
      return {
        contents: `${code.replace(/^"use strict";/, '')}\nexport const validateShape = validate;\n`,
        loader: 'js',
        watchFiles: [fileURLToPath(schemaFile)],
      };
    });
  },
};

/** codegen/emit/manifestTypes.ts as the text it returns: json-schema-to-typescript runs once per bundle, not per run. */
const precomputedManifestTypes = {
  name: 'precomputed-manifest-types',
  setup(build) {
    build.onLoad({ filter: /[\\/]codegen[\\/]emit[\\/]manifestTypes\.ts$/ }, async (args) => {
      const { emitManifestTypes } = await importTypeScript(build.esbuild, args.path);
      const text = await emitManifestTypes();
      return {
        contents: `export async function emitManifestTypes() {\n  return ${JSON.stringify(text)};\n}\n`,
        loader: 'js',
      };
    });
  },
};

let importedModules = 0;

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
  // A name of its own per call: esbuild runs the plugins' loads at once.
  const file = new URL(`module.${process.pid}.${(importedModules += 1)}.mjs`, cacheDir);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(file, result.outputFiles[0].contents);
  try {
    return await import(file.href);
  } finally {
    await rm(file, { force: true });
  }
}
