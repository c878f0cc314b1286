/** One part of a multipart/form-data body. */
export interface FormPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

const MAX_PARTS = 20;

/** The boundary of a multipart/form-data content type, or null when it has none. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const match = /^multipart\/form-data;.*\bboundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** Splits a buffered multipart body (RFC 7578). Returns null when it is malformed. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) return null;
  for (let count = 0; count < MAX_PARTS; count += 1) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === '--') return parts;
    if (body.subarray(position, position + 2).toString() !== '\r\n') return null;
    position += 2;
    const headerEnd = body.indexOf('\r\n\r\n', position);
    if (headerEnd < 0) return null;
    const headers = body.subarray(position, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return null;
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    const contentType = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim().toLowerCase() ?? null;
    parts.push({ name, filename, contentType, data: body.subarray(headerEnd + 4, next) });
    position = next + 2;
  }
  return null;
}
