// One measurement in a fresh process: build the model and emit every file in memory, as `generate` does.
import { buildModel, emitAll } from '../../codegen/index.ts';

const dir = process.argv[2]!;
const started = performance.now();
const built = await buildModel(dir);
if (!built.model) throw new Error(built.errors.map((error) => error.message).join('\n'));
const files = await emitAll(built.model);
const ms = performance.now() - started;
const bytes = [...files.values()].reduce((sum, text) => sum + text.length, 0);
console.log(JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024, files: files.size, bytes }));
