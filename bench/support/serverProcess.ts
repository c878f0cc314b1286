/**
 * The load generator's side of a benchmark whose API runs in a child process, so that the two never share an event
 * loop: the process started and awaited until it reports ready, signed in to, and stopped.
 */
import { fork, type ChildProcess } from 'node:child_process';

export type DatabaseKind = 'pglite' | 'postgres';

export interface ServerProcessOptions {
  /** Names the server in the error when it exits before it is ready. */
  name: string;
  /** Added to this process's environment. */
  env: Record<string, string>;
  /** Node flags beyond tsx's (e.g. --cpu-prof). */
  nodeArgs?: readonly string[];
}

/**
 * `script` in a child process (under tsx), `body` run with what it reports over IPC once it listens; the process is
 * told to stop, and awaited, whatever `body` does.
 */
export async function withServerProcess<Ready, T>(
  script: URL,
  { name, env, nodeArgs = [] }: ServerProcessOptions,
  body: (ready: Ready, pid: number | undefined, child: ChildProcess) => Promise<T>,
): Promise<T> {
  const server = fork(script, {
    execArgv: ['--import', 'tsx', ...nodeArgs],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      server.once('message', (message) => resolve(message as Ready));
      void exited.then((code) => reject(new Error(`The ${name} bench server exited (${code}) before it was ready.`)));
    });
    return await body(ready, server.pid, server);
  } finally {
    if (server.connected) server.send('stop');
    await exited;
  }
}

/** Signs the demo administrator in to the API at `base`: the headers that authorise the requests under load. */
export async function signIn(base: string): Promise<Record<string, string>> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'Admin@12345' }),
  });
  const { data } = (await login.json()) as { data: { access: string } };
  return { authorization: `Bearer ${data.access}` };
}
