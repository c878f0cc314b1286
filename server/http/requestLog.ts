import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Writable } from 'node:stream';
import pretty from 'pino-pretty';

/** How the server logs: `json` lines (production's default: a log collector reads them) or `pretty` lines for people. */
export type LogFormat = 'json' | 'pretty';

export interface LoggerSetting {
  level: string;
  format?: LogFormat;
  /** Where the lines go instead of standard output (tests). */
  stream?: { write(line: string): void };
}

/**
 * Fastify's logging options. JSON: Fastify's own lines, a request's begun and its completion, each with the request's
 * id. Pretty: through pino-pretty, and one line per request when it completes (`GET /api/v1/countries 200 4 ms`).
 */
export function loggingOptions(
  setting: LoggerSetting | false,
): Pick<FastifyServerOptions, 'logger' | 'disableRequestLogging'> {
  if (!setting) return { logger: false };
  if (setting.format !== 'pretty')
    return { logger: { level: setting.level, ...(setting.stream ? { stream: setting.stream } : {}) } };
  // In this thread and synchronously (not pino's transport worker): the last lines before a crash are not lost.
  const stream = pretty({
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    singleLine: true,
    sync: true,
    ...(setting.stream instanceof Writable ? { destination: setting.stream, colorize: false } : {}),
  });
  return { logger: { level: setting.level, stream }, disableRequestLogging: true };
}

/** The one line per completed request of the pretty format. */
export function registerRequestLines(app: FastifyInstance, setting: LoggerSetting | false): void {
  if (!setting || setting.format !== 'pretty') return;
  app.addHook('onResponse', async (request, reply) => {
    const line = `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(0)} ms`;
    if (reply.statusCode >= 500) request.log.error(line);
    else request.log.info(line);
  });
}
