import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  count,
  mebibytes,
  XLSX_MAX_PARTS,
  XLSX_MAX_RATIO,
  XLSX_MAX_UNCOMPRESSED_BYTES,
  XLSX_RATIO_FROM_BYTES,
} from '../importLimits.ts';
import { FileRefused, UNREADABLE_XLSX } from './refusal.ts';

/**
 * An XLSX file's zip, judged by its central directory before any part is inflated: how many parts, and how large each
 * says it inflates, alone, together and against its compressed size. A part is then read as a stream that is cut off
 * the moment it inflates past the size it declared.
 */
export class XlsxArchive {
  private constructor(
    private readonly zip: ZipFile,
    private readonly parts: ReadonlyMap<string, Entry>,
  ) {}

  static async open(data: Buffer): Promise<XlsxArchive> {
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(
        data,
        { lazyEntries: true, validateEntrySizes: false, strictFileNames: false },
        (error, opened) => (error ? reject(unreadable()) : resolve(opened)),
      ),
    );
    if (zip.entryCount > XLSX_MAX_PARTS)
      throw new FileRefused(
        `An XLSX file may hold at most ${count(XLSX_MAX_PARTS)} parts; this one holds ${count(zip.entryCount)}.`,
      );
    const parts = new Map<string, Entry>();
    let total = 0;
    for (const entry of await entriesOf(zip)) {
      const name = entry.fileName;
      if (entry.uncompressedSize > XLSX_MAX_UNCOMPRESSED_BYTES) {
        throw new FileRefused(
          `An XLSX file may inflate to at most ${mebibytes(XLSX_MAX_UNCOMPRESSED_BYTES)}; its part ${name} declares ${mebibytes(entry.uncompressedSize)}.`,
        );
      }
      total += entry.uncompressedSize;
      if (total > XLSX_MAX_UNCOMPRESSED_BYTES)
        throw new FileRefused(
          `An XLSX file may inflate to at most ${mebibytes(XLSX_MAX_UNCOMPRESSED_BYTES)}; its parts declare more.`,
        );
      if (
        entry.uncompressedSize > XLSX_RATIO_FROM_BYTES &&
        entry.uncompressedSize > entry.compressedSize * XLSX_MAX_RATIO
      ) {
        const ratio = Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize));
        throw new FileRefused(
          `An XLSX part may inflate to at most ${XLSX_MAX_RATIO} times its compressed size; ${name} inflates ${count(ratio)} times.`,
        );
      }
      parts.set(name, entry);
    }
    return new XlsxArchive(zip, parts);
  }

  has(name: string): boolean {
    return this.parts.has(name);
  }

  /** The part's text, a chunk at a time, never more bytes than its entry declares. */
  async *text(name: string): AsyncGenerator<string> {
    const entry = this.parts.get(name);
    if (!entry) throw unreadable();
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      this.zip.openReadStream(entry, (error, opened) => (error ? reject(unreadable()) : resolve(opened))),
    );
    const decoder = new TextDecoder('utf-8');
    let inflated = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > entry.uncompressedSize)
          throw new FileRefused(
            `An XLSX part may not inflate past the size it declares; ${name} declares ${count(entry.uncompressedSize)} bytes and inflates to more.`,
          );
        yield decoder.decode(chunk, { stream: true });
      }
    } catch (error) {
      throw error instanceof FileRefused ? error : unreadable();
    } finally {
      (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
    }
    if (inflated !== entry.uncompressedSize) throw unreadable();
    yield decoder.decode();
  }

  close(): void {
    this.zip.close();
  }
}

function unreadable(): FileRefused {
  return new FileRefused(UNREADABLE_XLSX);
}

function entriesOf(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', () => reject(unreadable()));
    zip.readEntry();
  });
}
