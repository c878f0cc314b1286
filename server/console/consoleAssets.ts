import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Vite names every file under assets/ by its content hash, so a file there never changes under its name. */
const HASHED_FOLDER = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and anything else unhashed: kept, but checked with the server on each use, so a deploy is seen at once. */
const REVALIDATE = 'no-cache';

/** The file types worth compressing; images and fonts are compressed already. Source maps are never precompressed. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest']);
/** What a precompressed copy of `file` is called; @fastify/static looks for these beside the file. */
export const PRECOMPRESSED = [
  {
    extension: '.br',
    compress: (bytes: Buffer) =>
      promisify(brotliCompress)(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
  },
  { extension: '.gz', compress: (bytes: Buffer) => promisify(gzip)(bytes, { level: 9 }) },
] as const;

/** The Cache-Control of a file of the built console, by its path under the folder. */
export function cacheControlOf(folder: string, file: string): string {
  return relative(folder, file).split(sep)[0] === HASHED_FOLDER ? IMMUTABLE : REVALIDATE;
}

/**
 * Writes a brotli and a gzip copy beside every compressible file of a built console at or above the threshold,
 * once, at build time (maximum compression costs seconds, too slow for each request). A copy that would not be
 * smaller is not written. Returns the files it compressed, relative to the folder.
 */
export async function precompressConsole(folder: string): Promise<string[]> {
  const files = (await filesUnder(folder)).filter((file) => COMPRESSIBLE.has(extname(file)));
  const done: string[] = [];
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file);
      if (bytes.length < COMPRESSION_THRESHOLD_BYTES) return;
      for (const { extension, compress } of PRECOMPRESSED) {
        const packed = await compress(bytes);
        if (packed.length < bytes.length) await writeFile(file + extension, packed);
      }
      done.push(relative(folder, file));
    }),
  );
  return done.sort();
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return (await stat(path)).isFile() ? [path] : [];
    }),
  );
  return nested.flat();
}
