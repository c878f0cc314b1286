/**
 * Statement texts and the prepared statements they run as, least recently used first out. The server builds its
 * SQL from the manifest (a fixed set of texts, values always as parameters), so a few hundred entries hold every
 * hot statement while an unusual filter combination cannot grow the cache without bound.
 */
export class PreparedNames<T extends { name: string }> {
  private readonly entries = new Map<string, T>();
  private counter = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(text: string): T | undefined {
    const entry = this.entries.get(text);
    if (entry) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(text);
      this.entries.set(text, entry);
    }
    return entry;
  }

  /** A name no statement of this cache has had. */
  nextName(): string {
    this.counter += 1;
    return `s${this.counter}`;
  }

  /** Files `entry` under `text`; returns the entry it pushed out, if the cache was full. */
  set(text: string, entry: T): T | undefined {
    this.entries.delete(text);
    let evicted: T | undefined;
    if (this.entries.size >= this.capacity) {
      const [oldest] = this.entries;
      if (oldest) {
        this.entries.delete(oldest[0]);
        evicted = oldest[1];
      }
    }
    this.entries.set(text, entry);
    return evicted;
  }

  delete(text: string): T | undefined {
    const entry = this.entries.get(text);
    this.entries.delete(text);
    return entry;
  }
}
