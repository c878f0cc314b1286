import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { readReceived, type ResumableStore } from './storage.ts';

/** How many files this instance follows the hash of at once; past it the oldest is dropped (and read again at its end). */
const FOLLOWED_FILES = 1000;

interface Followed {
  hash: Hash;
  /** How many bytes from the first the hash has taken, which is also where the stored file ends. */
  bytes: number;
}

/**
 * The SHA-256 of each file as it arrives in chunks. The hash of a file follows its bytes from the first as this instance
 * writes them; it is kept only while it matches the stored file byte for byte (each chunk starts where the hash ended,
 * and the store wrote all the chunk's bytes). Otherwise (this process restarted mid-upload, another instance took a
 * chunk, a chunk was cut short) it is dropped, and the file is read once from storage when it is complete.
 */
export class ReceivedHashes {
  private readonly followed = new Map<string, Followed>();

  constructor(private readonly store: ResumableStore) {}

  /** The store, writing through the hashes: what the tus server writes with. */
  hashingStore(): ResumableStore {
    const { store } = this;
    const write = store.write.bind(store);
    const hashing = Object.create(store) as ResumableStore;
    hashing.write = async (stream, key, offset) => {
      const current = this.followed.get(key) ?? (offset === 0 ? { hash: createHash('sha256'), bytes: 0 } : null);
      this.followed.delete(key);
      if (!current || current.bytes !== offset) return write(stream, key, offset);
      let taken = 0;
      const counted = Readable.from(
        (async function* () {
          for await (const chunk of stream) {
            current.hash.update(chunk as Buffer);
            taken += (chunk as Buffer).length;
            yield chunk as Buffer;
          }
        })(),
      );
      stream.once('error', (error) => counted.destroy(error));
      const end = await write(counted, key, offset);
      if (end === offset + taken) this.follow(key, { hash: current.hash, bytes: end });
      return end;
    };
    return hashing;
  }

  /** The hex SHA-256 of a complete file of `size` bytes: the followed one, or read once from storage. */
  async complete(key: string, size: number): Promise<string> {
    const current = this.followed.get(key);
    this.followed.delete(key);
    if (current && current.bytes === size) return current.hash.digest('hex');
    return hashStored(this.store, key);
  }

  private follow(key: string, hash: Followed): void {
    if (this.followed.size >= FOLLOWED_FILES) this.followed.delete(this.followed.keys().next().value!);
    this.followed.set(key, hash);
  }
}

/** The hex SHA-256 of a stored file, read once as a stream. */
export async function hashStored(store: ResumableStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await readReceived(store, key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
