import { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';

/**
 * The tus store of the in-memory storage (tests, in-memory runs): a file received in chunks grows in the same map the
 * storage reads from, and its announced length is kept beside it until the storage removes the file.
 */
export class MemoryUploadStore extends DataStore {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly files: Map<string, Buffer>) {
    super();
    this.extensions = ['creation', 'creation-with-upload'];
  }

  override async create(upload: Upload): Promise<Upload> {
    this.uploads.set(upload.id, new Upload({ ...upload, offset: 0 }));
    this.files.set(upload.id, Buffer.alloc(0));
    return upload;
  }

  override async write(stream: Readable, key: string, offset: number): Promise<number> {
    const received = this.files.get(key);
    if (!this.uploads.has(key) || !received) throw ERRORS.FILE_NOT_FOUND;
    // Kept as it arrives, so a request cut short keeps what it delivered, as a file on disk does.
    let data = received.subarray(0, offset);
    try {
      for await (const chunk of stream) {
        data = Buffer.concat([data, chunk as Buffer]);
        this.files.set(key, data);
      }
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return data.length;
  }

  override async getUpload(key: string): Promise<Upload> {
    const upload = this.uploads.get(key);
    const received = this.files.get(key);
    if (!upload || !received) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({ ...upload, offset: received.length });
  }

  override async remove(key: string): Promise<void> {
    this.forget(key);
    this.files.delete(key);
  }

  read(key: string): Readable {
    const received = this.files.get(key);
    if (!received) throw ERRORS.FILE_NOT_FOUND;
    return Readable.from([received]);
  }

  /** Forgets the announced length of a file the storage removed. */
  forget(key: string): void {
    this.uploads.delete(key);
  }
}
