import { isDeepStrictEqual } from 'node:util';
import type { FastifyRequest, RouteOptions } from 'fastify';

/**
 * Makes a route of a test server refuse to send a JSON answer that its serialiser (fast-json-stringify, compiled from
 * the answer schema the route declares) wrote differently from what the handler gave: a field dropped, a value
 * coerced (null to "", "12.50" to 12.5). The answer becomes a 500 naming the difference, so every server test also
 * proves that the declared schemas lose nothing.
 */
export function checkLosslessAnswers(route: RouteOptions): void {
  const given = new WeakMap<FastifyRequest, string>();
  route.preSerialization = [
    ...hooks(route.preSerialization),
    async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
      given.set(request, JSON.stringify(payload));
      return payload;
    },
  ];
  route.onSend = [
    ...hooks(route.onSend),
    async (request: FastifyRequest, reply: { statusCode: number }, payload: unknown) => {
      const expected = given.get(request);
      if (expected === undefined || typeof payload !== 'string') return payload;
      if (!isDeepStrictEqual(JSON.parse(payload), JSON.parse(expected))) {
        const difference = `${request.method} ${route.url} ${reply.statusCode}: the answer schema changed the answer.\n  handler: ${expected}\n  sent:    ${payload}`;
        // Said here too: the test sees only the 500 the thrown error becomes.
        console.error(difference);
        throw new Error(difference);
      }
      return payload;
    },
  ];
}

function hooks<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : ([value].flat() as T[]);
}
