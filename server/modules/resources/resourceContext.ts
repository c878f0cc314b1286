import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/session.ts';
import type { Row } from '../../db/database.ts';
import type { Scope } from '../../db/sqlParams.ts';
import { notFound } from '../../http/errors.ts';
import { etagOf } from '../../http/recordVersion.ts';
import type { EntityResource } from '../../registry.ts';
import type { ResourceRecords } from './recordOperations.ts';
import { writeAsCaller } from './writeAsCaller.ts';
import type { WriteContext } from './behaviours.ts';
import type { AuditTrail } from './auditTrail.ts';
import type { ReadResponse, ResponseCache } from './responseCache.ts';
import type { ListQuery } from './listSql.ts';
import type { ResourceTable } from './sql.ts';
import type { ResourceTrash } from './trash.ts';

/**
 * From this many rows into a list its pages are read from the list's ordered ids rather than with OFFSET, which reads
 * every match before the page: a filtered view's page 40 of 50 rows read 21,000 rows to keep 50.
 */
export const DEEP_PAGE_OFFSET = 200;
/** A list of more matches than this (160 kB of ids) keeps no ids: its deep pages use OFFSET, through the sort index. */
export const MAX_KEPT_IDS = 20_000;

/** Request body of a create or an update, validated against the resource's schema. */
export type Body = Record<string, unknown>;

/** One resource's generic endpoints share this: its record operations, its stores and the answers they have in common. */
export class ResourceContext {
  readonly records: ResourceRecords;
  readonly table: ResourceTable;
  readonly trail: AuditTrail;
  readonly trash: ResourceTrash;
  readonly singular: string;

  constructor(
    readonly app: FastifyInstance,
    readonly resource: EntityResource,
    private readonly responses: ResponseCache,
  ) {
    this.records = app.records.of(resource);
    this.table = this.records.table;
    this.trail = this.records.trail;
    this.trash = this.records.trash;
    this.singular = resource.singular;
  }

  get db() {
    return this.app.db;
  }

  scopeOf(user: SessionUser | null): Scope | null {
    return this.records.scopeOf(user);
  }

  /** Runs `write` in one transaction with the request's caller as the context of the record operations. */
  write<T>(request: FastifyRequest, write: (context: WriteContext) => Promise<T>): Promise<T> {
    return writeAsCaller(this.app, request, write);
  }

  async load(id: number, user: SessionUser): Promise<Row> {
    const row = await this.table.get(this.db, id, this.scopeOf(user));
    if (!row) throw notFound(this.singular);
    return row;
  }

  /**
   * Sends the response `read()` makes, or the same one from the cache when nothing has changed since it was read.
   */
  async sendCached(
    reply: FastifyReply,
    user: SessionUser,
    request: string,
    read: () => Promise<ReadResponse>,
  ): Promise<FastifyReply> {
    const { body, etag } = await this.responses.response(this.cacheKey(user, request), user.dataVersion, read);
    if (etag) reply.header('etag', etag);
    return reply.type('application/json; charset=utf-8').send(body);
  }

  /**
   * A list page with its total. The total of a search and filters is kept beside the cached answers, under the same
   * data version, so the other pages and page sizes of the same list do not count the matches again.
   */
  async listPage(user: SessionUser, query: ListQuery): Promise<{ rows: Row[]; total: number }> {
    const offset = (query.page - 1) * query.pageSize;
    if (offset >= DEEP_PAGE_OFFSET) {
      const ids = await this.orderedIds(user, query);
      if (ids.length > 0) {
        const slice = Array.from(ids.subarray(offset, offset + query.pageSize));
        const rows = slice.length > 0 ? await this.table.page(this.db, slice, query, this.scopeOf(user)) : [];
        return { rows, total: ids.length };
      }
    }
    const { q, filters } = query;
    const key = this.cacheKey(user, `total ${JSON.stringify({ q, filters })}`);
    const known = this.responses.total(key, user.dataVersion);
    const page = await this.table.list(this.db, query, this.scopeOf(user), known);
    if (known === undefined) this.responses.rememberTotal(key, user.dataVersion, page.total);
    return page;
  }

  /**
   * The list's matches in order, read once per data version for all its deep pages and sizes (and kept as 8-byte
   * numbers beside the cached answers); empty when there are more than MAX_KEPT_IDS, whose deep pages use OFFSET.
   */
  private async orderedIds(user: SessionUser, query: ListQuery): Promise<Float64Array> {
    const { q, filters, sort, order } = query;
    const key = this.cacheKey(user, `ids ${JSON.stringify({ q, filters, sort, order })}`);
    const { body } = await this.responses.response(key, user.dataVersion, async () => {
      const ids = await this.table.orderedIds(this.db, query, this.scopeOf(user), MAX_KEPT_IDS + 1);
      return { body: Buffer.from(Float64Array.from(ids.length > MAX_KEPT_IDS ? [] : ids).buffer) };
    });
    return new Float64Array(body.buffer, body.byteOffset, body.length / Float64Array.BYTES_PER_ELEMENT);
  }

  /** Everything an answer depends on besides the data: the resource, the request and, when the caller sees a scoped part of the records, who the caller is. */
  private cacheKey(user: SessionUser, request: string): string {
    return `${this.resource.key} ${this.scopeOf(user) ? user.id : '*'} ${request}`;
  }
}

/**
 * The JSON text of a 200 answer as the route's own serialiser writes it (fast-json-stringify, compiled from the
 * answer schema the route declares), for answers kept in the response cache as text.
 */
export function serializeAnswer(reply: FastifyReply, payload: unknown): string {
  const serialize = reply.getSerializationFunction('200', 'application/json');
  if (!serialize)
    throw new Error(`${reply.request.method} ${reply.request.routeOptions.url} declares no JSON answer for 200.`);
  return serialize(payload as Record<string, unknown>);
}

/** A record's answer, `{ data, message? }`, with its version as the ETag. */
export function sendRecord(reply: FastifyReply, record: Row, message?: string): FastifyReply {
  return reply
    .header('etag', etagOf(Number(record.version)))
    .send(message === undefined ? { data: record } : { data: record, message });
}
