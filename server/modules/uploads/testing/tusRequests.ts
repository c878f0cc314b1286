import type { FastifyInstance } from 'fastify';

/** What `POST uploads` answers. */
export interface UploadTicket {
  upload: { id: number };
  upload_url: string;
  complete_path: string;
  expires_at: string;
  max_bytes: number;
}

export interface TusAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The path and query of a signed URL (absolute with PUBLIC_URL, else a path). */
export function pathOf(url: string): string {
  const target = new URL(url, 'http://unused.invalid');
  return target.pathname + target.search;
}

/** The requests of the tus protocol 1.0 a client makes, sent to the real app. */
export function tusRequests(app: FastifyInstance) {
  const send = async (
    method: 'POST' | 'HEAD' | 'PATCH',
    url: string,
    headers: Record<string, string>,
    payload?: Buffer,
  ): Promise<TusAnswer> => {
    const response = await app.inject({
      method,
      url: pathOf(url),
      headers: { 'tus-resumable': '1.0.0', ...headers },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };
  return {
    create: (url: string, length: number, headers: Record<string, string> = {}) =>
      send('POST', url, { 'upload-length': String(length), ...headers }),
    offset: async (url: string) => {
      const answer = await send('HEAD', url, {});
      return {
        ...answer,
        offset: answer.headers['upload-offset'] === undefined ? null : Number(answer.headers['upload-offset']),
      };
    },
    patch: (url: string, offset: number, chunk: Buffer, headers: Record<string, string> = {}) =>
      send(
        'PATCH',
        url,
        { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset), ...headers },
        chunk,
      ),
    /** Creates the file and sends it in `parts` chunks; the URL chunks go to (the creation's Location). */
    async sendFile(ticket: UploadTicket, content: Buffer, parts = 1): Promise<string> {
      const created = await this.create(ticket.upload_url, content.length);
      if (created.status !== 201) throw new Error(`tus creation: ${created.status} ${created.body}`);
      const location = String(created.headers.location);
      const size = Math.ceil(content.length / parts);
      for (let offset = 0; offset < content.length; offset += size) {
        const sent = await this.patch(location, offset, content.subarray(offset, offset + size));
        if (sent.status !== 204) throw new Error(`tus PATCH at ${offset}: ${sent.status} ${sent.body}`);
      }
      return location;
    },
  };
}

/** Sends a whole file to a listening server's signed tus URL (`base` resolves a path): creation, then one PATCH. */
export async function sendFileOverHttp(base: string, uploadUrl: string, content: string | Buffer): Promise<void> {
  const data = Buffer.from(content);
  const created = await fetch(new URL(uploadUrl, base), {
    method: 'POST',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(data.length) },
  });
  if (created.status !== 201) throw new Error(`tus creation: ${created.status} ${await created.text()}`);
  const location = new URL(created.headers.get('location') ?? '', new URL(uploadUrl, base));
  const sent = await fetch(location, {
    method: 'PATCH',
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: data,
  });
  if (sent.status !== 204) throw new Error(`tus PATCH: ${sent.status} ${await sent.text()}`);
}
