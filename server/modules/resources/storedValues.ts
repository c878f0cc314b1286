import type { FastifyInstance } from 'fastify';
import { MODULE, type EntityResource } from '../../registry.ts';

/** The stored columns of a validated body of `resource`: confirmations dropped, passwords hashed. */
export async function storedValues(
  app: FastifyInstance,
  resource: EntityResource,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const properties = (resource.entity.createSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const field of resource.entity.fields) {
    if (field.system || field.readOnly || !(field.name in body)) continue;
    const value = body[field.name];
    if (field.writeOnly) {
      // A confirmation is never stored; a user's password is stored as its hash by the USERS behaviour.
      if (properties[field.name]?.compareTo !== undefined || resource.key === MODULE.users) continue;
      if (field.format === 'password' && typeof value === 'string') {
        values[field.name] = await app.passwords.hash(value);
        continue;
      }
    }
    values[field.name] = value;
  }
  return values;
}
