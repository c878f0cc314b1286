import { fileURLToPath } from 'node:url';

const bundles = new Map<string, Promise<string>>();

/**
 * A worker thread's code: its TypeScript entry and the libraries it uses bundled once per process by esbuild (in its own
 * process, so the event loop goes on), so a worker starts in milliseconds without a TypeScript loader of its own. Start
 * the worker with `new Worker(code, { eval: true })`.
 */
export function workerCode(entry: URL): Promise<string> {
  const path = fileURLToPath(entry);
  let bundled = bundles.get(path);
  if (!bundled) {
    bundled = import('esbuild')
      .then(({ build }) =>
        build({
          entryPoints: [path],
          bundle: true,
          platform: 'node',
          format: 'cjs',
          target: 'node20',
          write: false,
          logLevel: 'silent',
        }),
      )
      .then((result) => result.outputFiles[0]!.text)
      .catch((error: unknown) => {
        bundles.delete(path);
        throw error;
      });
    bundles.set(path, bundled);
  }
  return bundled;
}
