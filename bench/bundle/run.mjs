#!/usr/bin/env node
// Bundle budget: builds the console, then prints the gzip size of the initial JS (the entry chunk and its
// static imports), the bytes of what the login screen needs as the server sends them (the page, its scripts and
// styles, each as its precompressed brotli copy), the gzip size of each area chunk (in bytes: each is held to
// what it was) and of the home screen's, each against its budget.
// Exit 1 when one is over.
// Usage, from the project's root:  node bench/bundle/run.mjs [--no-build]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGETS = {
  /**
   * The entry and its static imports (a naive entry of this stack is 128.6 KB), 93.7 KB. By the source map, each
   * gzipped apart: react-dom 62.1, react 3.0, scheduler 1.5, React Router's declarative router 13.3 (its data router
   * was 31.3: the reason the console runs the declarative one on a history of its own), the console's code 12.8.
   */
  initial: 95 * KB,
  /** The page, initial JS and CSS plus the login route's chunks, as served: what a visitor waits for before the login form. */
  loginScreen: 110 * KB,
};

/**
 * One area's first visit: its description as the console reads it (src/generated/areas/<area>.json; what only the
 * server reads is in server/generated/ and never loaded), its precompiled validators and the small code areas share,
 * in bytes. `before` is each area as it was when each runtime had its own generated code (commit 8682955^), the figure
 * each area is held to. The join of description and validators ships with the shell (the route table's loaders call
 * it), not in each area. Five areas stay above their figure of before, each for what its manifest gained since, not for
 * code: built from the manifest of 8682955^, today's code makes voucher-management 250 B smaller (an import action,
 * enum labels, a conditional rule) and create-hs-code-management 95 B smaller (an import action); data-upload-management
 * gained 55 B when an upload could be cancelled, replaced or abandoned (three statuses and their labels) and 53 B when its
 * file field came to take CSV compressed with gzip (its pattern, title and accepted types); subscriber-management gained
 * 28 B net when selling came to record money (the subscription form's trial, voucher, amount paid and payment
 * reference, the top-up's reference, six derived statuses with their labels, a created-at filter) less the conditional
 * rule it no longer has; data-upload-management, subscriber-management and voucher-management gained 10-25 B each when
 * their lists came to say which columns matter most (`list.priority`); voucher-management gained 43 B when its numbers
 * came to say what they count (`valueUnit`: a discount in rupees or percent by its type, a cap in rupees); the three
 * gained 60-80 B when mobile numbers came to be read in their usual spellings (`nationalMobile`, in the formats their
 * validators share) and codes kept in capitals (`normalise` on their fields); data-upload-management gained 33 B when
 * an import came to wait for review (the statuses "Waiting for review" and "Rejected by a reviewer" in place of
 * "Completed", and the `verify` action); voucher-management gained 6 B when its cap came to be declared as money
 * (`format: "money"` with its `currency`, in place of `valueUnit`); data-upload-management, subscriber-management and
 * voucher-management gained 5-9 B when an image's address came to be declared (`format: "image-url"`, in the formats
 * their validators share) rather than guessed from a field's name; user-management gained 8 B when a role came to be
 * able to require two-factor sign-in (its `requires_two_factor` field), 41 B more with the API tokens module and 36 B
 * more with the webhooks module (each its description and route; the screens are chunks of their own); `budget` holds
 * them where they are now.
 */
const AREA_BUDGETS = {
  'admin-reporting-management': { before: 260 },
  auth: { before: 114 },
  'banner-management': { before: 2_848 },
  'category-management': { before: 1_828 },
  'company-employee-contacts-management': { before: 2_635 },
  'company-management': { before: 3_070 },
  'country-management': { before: 2_683 },
  'create-hs-code-management': { before: 2_056, budget: 2_110 },
  'data-column': { before: 2_275 },
  'data-upload-management': { before: 2_880, budget: 3_060 },
  developers: { before: 243 },
  'employee-management': { before: 2_955 },
  'executive-profile-management': { before: 2_771 },
  masters: { before: 5_089 },
  'profile-management': { before: 2_397 },
  'related-product-management': { before: 1_984 },
  'subscriber-management': { before: 4_411, budget: 4_548 },
  'subscribers-details-management': { before: 2_817 },
  'subscription-management': { before: 4_645 },
  'user-management': { before: 3_419, budget: 3_504 },
  'voucher-management': { before: 3_076, budget: 3_334 },
};

const root = process.cwd();
const dist = join(root, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
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

const sum = (keys) =>
  [...keys]
    .filter((key) => manifest[key].file.endsWith('.js'))
    .reduce((total, key) => total + gzipSize(manifest[key].file), 0);
const format = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const bytes = (count) => `${count.toLocaleString('en')} B`;

const rows = [];
let failed = false;
function report(name, size, budget, show = format) {
  const pass = size <= budget;
  failed ||= !pass;
  rows.push([pass ? 'PASS' : 'FAIL', name, show(size), show(budget)]);
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('dist/.vite/manifest.json names no entry chunk: is build.manifest on?');
const initial = staticClosure(entryKey);
report(`initial JS (${entryKey} + ${initial.size - 1} static imports)`, sum(initial), BUDGETS.initial);

const loginKey = Object.keys(manifest).find((key) => key.endsWith('src/auth/LoginScreen.tsx'));
const guestKey = Object.keys(manifest).find((key) => key.endsWith('src/layout/GuestLayout.tsx'));
const login = new Set(initial);
for (const key of [guestKey, loginKey].filter(Boolean)) staticClosure(key, login);
/** A file as the server sends it to a browser that takes brotli: its .br copy when the build wrote one. */
const servedSize = (file) => statSync(join(dist, existsSync(join(dist, `${file}.br`)) ? `${file}.br` : file)).size;
// The page of /auth/login is the sign-in page (index.html with the form in it, server/console/signInPage.ts).
const loginFiles = new Set([
  'sign-in.html',
  ...[...login].flatMap((key) => [manifest[key].file, ...(manifest[key].css ?? [])]),
]);
report(
  'login screen as served (page + JS + CSS, brotli copies)',
  [...loginFiles].reduce((total, file) => total + servedSize(file), 0),
  BUDGETS.loginScreen,
);

const areaKeys = Object.keys(manifest)
  .filter((key) => /src\/generated\/areas\/[^/]+\.ts$/.test(key))
  .sort();
for (const key of areaKeys) {
  const name = key.replace(/^.*areas\/|\.ts$/g, '');
  const own = [...staticClosure(key)].filter((chunk) => !initial.has(chunk));
  const limits = AREA_BUDGETS[name];
  if (!limits) throw new Error(`bench/bundle/run.mjs has no budget for the area ${name}: add it to AREA_BUDGETS`);
  report(
    `area ${name}${limits.budget ? ` (before: ${bytes(limits.before)})` : ''}`,
    sum(own),
    limits.budget ?? limits.before,
    bytes,
  );
}

// The home screen, where every user lands after signing in: what it loads beyond the initial JS and the admin layout
// (its code and the small shared pieces no other part of the shell has loaded yet), so landing stays fast. 2,722 B
// when it was added, the screen itself 1,250 B of it. 3,000 B until the one query-state wrapper every screen shows its
// loading and errors with took the query itself (one or several, keeping loaded data on a failed refetch): 3,021 B.
const HOME_BUDGET = 3_100;
const homeKey = Object.keys(manifest).find((key) => key.endsWith('src/screens/custom/home/HomeScreen.tsx'));
const adminLayoutKey = Object.keys(manifest).find((key) => key.endsWith('src/layout/AdminLayout.tsx'));
if (!homeKey || !adminLayoutKey) throw new Error('dist/.vite/manifest.json has no home screen or admin layout chunk');
const shell = staticClosure(adminLayoutKey, new Set(initial));
report(
  'home screen (beyond the initial JS and the admin layout)',
  sum([...staticClosure(homeKey)].filter((key) => !shell.has(key))),
  HOME_BUDGET,
  bytes,
);

// --- Forms library budget (added by the screens/forms engineer; kept apart from the budgets above) ---
// The chunk(s) holding @rjsf, loaded only with the screens that show a form. Validators are precompiled,
// so no ajv compiler should be in there; the budget catches it (and any other heavy addition) if one is.
// No larger than it was before the shell was slimmed (88,709 bytes), but for the 121 B a field stored in one form
// takes (capitals as typed, a mobile number's digits when left: the form template and the mobile spellings it reads),
// 10 B for the hashed names of the chunks it imports, which move its gzip size by a few bytes from build to build, and
// 260 B when money came to be declared with its currency (the money widget reads it and shows that currency's symbol).
const FORMS_BUDGET = 89_100;
const formsKeys = Object.keys(manifest).filter(
  (key) => manifest[key].file.endsWith('.js') && bundledSources([key]).some((source) => source.includes('/@rjsf/')),
);
report(
  `forms library (${formsKeys.map((key) => manifest[key].file.replace(/^assets\//, '')).join(', ') || 'NO @rjsf CHUNK FOUND'})`,
  formsKeys.length ? sum(formsKeys) : Infinity,
  FORMS_BUDGET,
);
// --- end of the forms library budget ---

/** The modules bundled into these chunks, from their source maps. */
function bundledSources(keys) {
  return [...keys].flatMap((key) => {
    const map = join(dist, `${manifest[key].file}.map`);
    return existsSync(map) ? JSON.parse(readFileSync(map, 'utf8')).sources : [];
  });
}

// No screen may be initial; nor is the screen registry (src/screens/index.ts): its dependency lists weigh 1.7 KB.
const heavy = [
  '@rjsf/',
  '@tanstack/react-table',
  'src/screens/generic/',
  'src/screens/custom/',
  'dompurify',
  '@tanstack/react-query',
  'axios',
  'uplot',
  // The passkey library loads when a passkey button is used, not with the sign-in screen.
  '@simplewebauthn/',
];
const sources = bundledSources(login);
const leaked = heavy.filter((name) => sources.some((source) => source.includes(name)));

const width = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column].length)));
for (const row of rows)
  console.log(
    row.map((cell, column) => (column >= 2 ? cell.padStart(width[column]) : cell.padEnd(width[column]))).join('  '),
  );
if (leaked.length) {
  console.log(`FAIL  the login screen pulls in: ${leaked.join(', ')}`);
  failed = true;
} else {
  console.log(`PASS  the login screen loads none of: ${heavy.join(', ')}`);
}
// The list screen's chunk is compiled as it loads (vite.config.ts, compileEagerly), not function by function in the
// first list's render.
const listKey = Object.keys(manifest).find((key) => key.endsWith('src/screens/generic/ListScreen.tsx'));
const listCode = listKey ? readFileSync(join(dist, manifest[listKey].file), 'utf8') : '';
if (listCode.startsWith('//# allFunctionsCalledOnLoad\n')) {
  console.log('PASS  the list screen is compiled as it loads (V8 compile hint)');
} else {
  console.log('FAIL  the list screen lacks its compile hint (//# allFunctionsCalledOnLoad on its first line)');
  failed = true;
}
process.exit(failed ? 1 : 0);
