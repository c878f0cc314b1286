/**
 * Serialised responses of the generic read endpoints (a list page, a record), each kept under the data version
 * (migration 005) it was read at. A request may use an entry only when the version its own session query just
 * read equals the entry's, so a committed change on any instance is seen by the very next request; memory only
 * saves re-running the same search and re-serialising the same page while nothing has changed.
 *
 * One version covers all cached data, so when a newer one is seen every entry is dropped at once. A request that
 * read an older version (its session query ran just before a commit) neither reads nor fills the cache.
 * Identical requests that miss together share one read of the database.
 */
export class ResponseCache {
  private version = -1;
  /** Insertion order is recency order: a hit moves its entry to the end, eviction takes from the front. */
  private readonly entries = new Map<string, string>();
  private size = 0;
  private readonly reading = new Map<string, Promise<string>>();

  /** `maxChars`: the total length of the bodies kept; one body may use at most a tenth of it. */
  constructor(private readonly maxChars = 16 * 1024 * 1024) {}

  /** The body under `key` at `version`: from memory, from a read already under way, or from `read()`. */
  async body(key: string, version: number, read: () => Promise<string>): Promise<string> {
    const cached = this.get(key, version);
    if (cached !== undefined) return cached;
    const readKey = `${version} ${key}`;
    let pending = this.reading.get(readKey);
    if (!pending) {
      pending = read()
        .then((body) => {
          this.set(key, version, body);
          return body;
        })
        .finally(() => this.reading.delete(readKey));
      this.reading.set(readKey, pending);
    }
    return pending;
  }

  get(key: string, version: number): string | undefined {
    if (version !== this.version) return undefined;
    const body = this.entries.get(key);
    if (body !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  set(key: string, version: number, body: string): void {
    if (version < this.version || body.length > this.maxChars / 10) return;
    if (version > this.version) {
      this.entries.clear();
      this.size = 0;
      this.version = version;
    }
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.size -= previous.length;
    }
    for (const [oldest, evicted] of this.entries) {
      if (this.size + body.length <= this.maxChars) break;
      this.entries.delete(oldest);
      this.size -= evicted.length;
    }
    this.entries.set(key, body);
    this.size += body.length;
  }

  get count(): number {
    return this.entries.size;
  }
}
