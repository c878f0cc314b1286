import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifySchema } from 'fastify';
import type { JsonSchema } from '../../contract/description.ts';
import type { Answer } from './answers.ts';
import { ERROR_BODY, wholeObject } from './answers.ts';
import { errorAnswer } from './errorHandler.ts';

/** What a long run tells its caller as it goes: how many of how many are done. */
export interface ProgressReporter {
  /** Called once the run has passed its checks and is under way: from here on the answer is a 200 stream. */
  start(total: number): void;
  report(done: number): void;
}

/** A long run's result: the `{ data, message }` of its last line. */
export interface ProgressResult {
  data: Record<string, unknown>;
  message: string;
}

/** Progress lines at most this often, so a fast run sends a handful, not one per batch. */
const REPORT_EVERY_MS = 200;

/**
 * Answers a long run as NDJSON (docs/api.md, "Progress of long runs"). Whatever the run refuses before `start()` (a
 * 400, a 403, a 409) is an ordinary error answer; after it, the answer is a 200 whose lines are `{ "progress": { done,
 * total } }` and, last, `{ data, message }` when it succeeded or `{ "error": { status, message, errors? } }` when it
 * failed (it changed nothing: the run is one transaction).
 */
export async function sendWithProgress(
  reply: FastifyReply,
  run: (progress: ProgressReporter) => Promise<ProgressResult>,
): Promise<FastifyReply> {
  const stream = new PassThrough();
  const line = (value: unknown) => stream.write(`${JSON.stringify(value)}\n`);
  let began: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (began = resolve));
  let total = 0;
  let reportedAt = 0;
  const progress: ProgressReporter = {
    start(count) {
      total = count;
      began();
      line({ progress: { done: 0, total } });
      reportedAt = Date.now();
    },
    report(done) {
      if (Date.now() - reportedAt < REPORT_EVERY_MS) return;
      reportedAt = Date.now();
      line({ progress: { done, total } });
    },
  };
  const result = run(progress);
  await Promise.race([started, result]);
  result.then(
    (value) => stream.end(`${JSON.stringify(value)}\n`),
    (error: unknown) => {
      reply.log.error({ err: error }, 'a long run failed after it started');
      stream.end(`${JSON.stringify({ error: errorLine(error, reply.request.routeOptions.schema) })}\n`);
    },
  );
  return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(stream);
}

function errorLine(error: unknown, schema: FastifySchema | undefined): Record<string, unknown> {
  const answer = errorAnswer(error, schema);
  return answer
    ? { status: answer.status, ...answer.body }
    : { status: 500, message: 'The run failed and changed nothing. Try again.' };
}

/** The 200 answer of a long run: its lines, each one of the three shapes, the last a result or an error. */
export function progressAnswer(description: string, data: JsonSchema): Answer {
  const progressLine = wholeObject({
    progress: wholeObject({ done: { type: 'integer' }, total: { type: 'integer' } }),
  });
  const resultLine = wholeObject({ data, message: { type: 'string' } });
  const errorLineSchema = wholeObject({
    error: {
      type: 'object',
      required: ['status', 'message'],
      properties: { status: { type: 'integer' }, ...ERROR_BODY.properties },
    },
  });
  return {
    description: `${description} Newline-delimited JSON: progress lines as it goes, then the result, or an error when it failed and changed nothing.`,
    content: { 'application/x-ndjson': { schema: { oneOf: [progressLine, resultLine, errorLineSchema] } } },
  };
}
