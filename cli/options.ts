/** The options every command takes (`--manifest`, `--out`), set on the program in main.ts. */
export interface PathOptions {
  manifest: string;
  out: string;
}

/** Where a command prints: the console, or a test's lines. */
export interface Io {
  log: (line: string) => void;
  error: (line: string) => void;
  /** Asks a question and returns the answer, on a terminal only: without one, what needs an answer is refused. */
  ask?: (question: string) => Promise<string>;
}
