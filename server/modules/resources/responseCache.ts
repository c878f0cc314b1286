/**
 * Serialised responses of the generic read endpoints (a list page, a record) and the totals of list searches, each
 * kept under the data version it was read at. A request may use an entry only when the version its own session query
 * just read equals the entry's, so a committed change on any instance is seen by the very next request; memory only
 * saves re-running the same search and re-serialising the same page while nothing has changed.
 *
 * Nothing in the TypeScript moves the version on: the database does, whoever writes. The version is the one row of
 * `data_version`, which the function `bump_data_version()` moves on once per transaction, at its commit, when the
 * transaction wrote a manifest table or `verifications`. Its triggers: `<table>_data_version` (and
 * `<table>_data_version_truncate`) on every manifest table, made by the manifest's migrations
 * (codegen/migrations/tableSql.ts, `dataVersionTriggers`), and `verifications_data_version`; the table, the function
 * and that trigger are defined in server/migrations/005_data_version.sql. The session query (auth/session.ts) reads it.
 *
 * One version covers all cached data, so when a newer one is seen every entry is dropped at once. A request that
 * read an older version (its session query ran just before a commit) neither reads nor fills the cache.
 * Identical requests that miss together share one read of the database.
 */
/** A response as read: its JSON text (or bytes already, such as a list's ordered ids) and, for a record, its ETag. */
export interface ReadResponse {
  body: string | Buffer;
  etag?: string;
}

/**
 * A response as kept and sent: its JSON as UTF-8 bytes. Bytes live outside the JavaScript heap, so the megabytes kept
 * here are never copied or traced by the garbage collector (as text, every page read under load survived its young
 * generation and was copied twice, in pauses of tens of milliseconds), and a hit is sent without encoding it again.
 */
export interface CachedResponse {
  body: Buffer;
  etag?: string;
}

const kept = ({ body, etag }: ReadResponse): CachedResponse => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return etag === undefined ? { body: bytes } : { body: bytes, etag };
};

export class ResponseCache {
  private version = -1;
  /** Insertion order is recency order: a hit moves its entry to the end, eviction takes from the front. */
  private readonly entries = new Map<string, CachedResponse>();
  private size = 0;
  private readonly reading = new Map<string, Promise<CachedResponse>>();

  /** `maxBytes`: the total size of the bodies kept; one body may use at most a tenth of it. */
  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  /** The response under `key` at `version`: from memory, from a read already under way, or from `read()`. */
  async response(key: string, version: number, read: () => Promise<ReadResponse>): Promise<CachedResponse> {
    const cached = this.get(key, version);
    if (cached !== undefined) return cached;
    const readKey = `${version} ${key}`;
    let pending = this.reading.get(readKey);
    if (!pending) {
      pending = read()
        .then((response) => {
          const bytes = kept(response);
          this.keep(key, version, bytes);
          return bytes;
        })
        .finally(() => this.reading.delete(readKey));
      this.reading.set(readKey, pending);
    }
    return pending;
  }

  get(key: string, version: number): CachedResponse | undefined {
    if (version !== this.version) return undefined;
    const response = this.entries.get(key);
    if (response !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, response);
    }
    return response;
  }

  set(key: string, version: number, response: ReadResponse): void {
    this.keep(key, version, kept(response));
  }

  private keep(key: string, version: number, response: CachedResponse): void {
    const { body } = response;
    if (version < this.version || body.length > this.maxBytes / 10) return;
    if (version > this.version) {
      this.entries.clear();
      this.size = 0;
      this.version = version;
    }
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.size -= previous.body.length;
    }
    for (const [oldest, evicted] of this.entries) {
      if (this.size + body.length <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= evicted.body.length;
    }
    this.entries.set(key, response);
    this.size += body.length;
  }

  /** A list's total kept under `key` at `version` (`rememberTotal`), or undefined. */
  total(key: string, version: number): number | undefined {
    const entry = this.get(key, version);
    return entry === undefined ? undefined : Number(entry.body.toString());
  }

  rememberTotal(key: string, version: number, total: number): void {
    this.set(key, version, { body: String(total) });
  }

  get count(): number {
    return this.entries.size;
  }
}
