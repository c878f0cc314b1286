#!/usr/bin/env node
// Bundle budget: builds the console, then prints the gzip size of the initial JS (the entry chunk and its
// static imports: everything the browser loads before the login screen's route chunk is requested), of
// what the login screen adds, and of each area chunk, each against its budget. Exit 1 when one is over.
// Usage, from the project's root:  node bench/bundle/run.mjs [--no-build]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGETS = {
  /** The entry and its static imports (issue budget; a naive entry of this stack is 128.6 KB). */
  initial: 120 * KB,
  /** Initial JS plus the login route's chunks: what a visitor waits for before the login form. */
  loginScreen: 120 * KB,
  /** One area chunk: resource descriptions and precompiled validators. */
  area: 25 * KB,
};

const root = process.cwd();
const dist = join(root, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}

/** @type {Record<string, { file: string, src?: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[] }>} */
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** The chunk and everything it imports statically, as manifest keys. */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}

const sum = (keys) => [...keys].filter((key) => manifest[key].file.endsWith('.js')).reduce((total, key) => total + gzipSize(manifest[key].file), 0);
const format = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

const rows = [];
let failed = false;
function report(name, bytes, budget) {
  const pass = bytes <= budget;
  failed ||= !pass;
  rows.push([pass ? 'PASS' : 'FAIL', name, format(bytes), format(budget)]);
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('dist/.vite/manifest.json names no entry chunk: is build.manifest on?');
const initial = staticClosure(entryKey);
report(`initial JS (${entryKey} + ${initial.size - 1} static imports)`, sum(initial), BUDGETS.initial);

const loginKey = Object.keys(manifest).find((key) => key.endsWith('src/auth/LoginScreen.tsx'));
const guestKey = Object.keys(manifest).find((key) => key.endsWith('src/layout/GuestLayout.tsx'));
const login = new Set(initial);
for (const key of [guestKey, loginKey].filter(Boolean)) staticClosure(key, login);
report('login screen ready (initial + guest layout + login chunks)', sum(login), BUDGETS.loginScreen);

const areaKeys = Object.keys(manifest)
  .filter((key) => /src\/generated\/areas\/[^/]+\.ts$/.test(key))
  .sort();
for (const key of areaKeys) {
  const own = [...staticClosure(key)].filter((chunk) => !initial.has(chunk));
  report(`area ${key.replace(/^.*areas\/|\.ts$/g, '')}`, sum(own), BUDGETS.area);
}

// --- Forms library budget (added by the screens/forms engineer; kept apart from the budgets above) ---
// The chunk(s) holding @rjsf, loaded only with the screens that show a form. Validators are precompiled,
// so no ajv compiler should be in there; the budget catches it (and any other heavy addition) if one is.
const FORMS_BUDGET = 90 * KB;
const formsKeys = Object.keys(manifest).filter((key) => manifest[key].file.endsWith('.js') && bundledSources([key]).some((source) => source.includes('/@rjsf/')));
report(`forms library (${formsKeys.map((key) => manifest[key].file.replace(/^assets\//, '')).join(', ') || 'NO @rjsf CHUNK FOUND'})`, formsKeys.length ? sum(formsKeys) : Infinity, FORMS_BUDGET);
// --- end of the forms library budget ---

/** The modules bundled into these chunks, from their source maps. */
function bundledSources(keys) {
  return [...keys].flatMap((key) => {
    const map = join(dist, `${manifest[key].file}.map`);
    return existsSync(map) ? JSON.parse(readFileSync(map, 'utf8')).sources : [];
  });
}

// The screen registry (src/screens/index.ts) is a table of dynamic imports and may be initial; no screen may.
const heavy = ['@rjsf/', '@tanstack/react-table', 'src/screens/generic/', 'src/screens/custom/', 'dompurify', '@tanstack/react-query', 'axios', 'uplot'];
const sources = bundledSources(login);
const leaked = heavy.filter((name) => sources.some((source) => source.includes(name)));

const width = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column].length)));
for (const row of rows) console.log(row.map((cell, column) => (column >= 2 ? cell.padStart(width[column]) : cell.padEnd(width[column]))).join('  '));
if (leaked.length) {
  console.log(`FAIL  the login screen pulls in: ${leaked.join(', ')}`);
  failed = true;
} else {
  console.log(`PASS  the login screen loads none of: ${heavy.join(', ')}`);
}
process.exit(failed ? 1 : 0);
