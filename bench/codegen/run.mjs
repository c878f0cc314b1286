#!/usr/bin/env node
// Codegen benchmark: synthetic manifests of 100, 1,000 and 5,000 resources, and the real manifest end to end.
// Prints time, peak memory and bytes for each against the budgets below; exits 1 when a budget fails.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const BUDGET = {
  realManifestGenerateMs: 500, // `admin-codegen generate` on manifest/, process start to exit
  realManifestBytes: 800_000, // what it writes: at most half of the 1.6 MB it wrote before the description was data
  resources1000Ms: 5000,
  // growth no worse than linear: time per resource at 5,000 may be at most this multiple of that at 1,000
  perResourceGrowth: 1.5,
};
const SIZES = [100, 1000, 5000];

register();
const { writeSyntheticManifest } = await import('./synthetic.ts');
const root = fileURLToPath(new URL('../..', import.meta.url));
const measureScript = fileURLToPath(new URL('./measure.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bench-codegen-'));
const results = [];
let failed = false;
const verdict = (ok) => {
  if (!ok) failed = true;
  return ok ? 'PASS' : 'FAIL';
};

try {
  for (const size of SIZES) {
    const dir = join(work, `manifest-${size}`);
    await writeSyntheticManifest(dir, size);
    const output = execFileSync(process.execPath, ['--import', 'tsx', measureScript, dir], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    const result = { size, ...JSON.parse(output.trim().split('\n').at(-1)) };
    results.push(result);
    const budget =
      size === 1000 ? ` budget ${BUDGET.resources1000Ms} ms ${verdict(result.ms < BUDGET.resources1000Ms)}` : '';
    console.log(
      `${String(size).padStart(5)} resources: ${result.ms.toFixed(0).padStart(6)} ms, peak RSS ${result.peakRssMb.toFixed(0)} MB, ${result.files} files, ${(result.bytes / 1e6).toFixed(1)} MB${budget}`,
    );
  }
  const perResource = (size) => results.find((r) => r.size === size).ms / size;
  const growth = perResource(5000) / perResource(1000);
  console.log(
    `growth: per-resource time at 5,000 is ${growth.toFixed(2)}x that at 1,000 (budget <= ${BUDGET.perResourceGrowth}x) ${verdict(growth <= BUDGET.perResourceGrowth)}`,
  );

  // Median of 5 runs, each writing every file into an empty folder: one run varies by ~10% with the machine's load.
  const runs = [];
  for (let run = 0; run < 5; run += 1) {
    const out = join(work, `real-out-${run}`);
    const started = performance.now();
    execFileSync(process.execPath, [join(root, 'cli', 'bin.mjs'), 'generate', '--out', out], {
      cwd: root,
      stdio: 'ignore',
    });
    runs.push(performance.now() - started);
  }
  const realMs = runs.sort((a, b) => a - b)[2];
  console.log(
    `real manifest, generate end to end: ${realMs.toFixed(0)} ms median of 5 (min ${runs[0].toFixed(0)}, max ${runs[4].toFixed(0)}; budget ${BUDGET.realManifestGenerateMs} ms) ${verdict(realMs < BUDGET.realManifestGenerateMs)}`,
  );
  const written = bytesUnder(join(work, 'real-out-0'));
  console.log(
    `real manifest, bytes written: ${written.bytes.toLocaleString('en')} in ${written.files} files (budget ${BUDGET.realManifestBytes.toLocaleString('en')}) ${verdict(written.bytes <= BUDGET.realManifestBytes)}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

function bytesUnder(dir) {
  const total = { bytes: 0, files: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    total.bytes += statSync(join(entry.parentPath, entry.name)).size;
    total.files += 1;
  }
  return total;
}
