import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNER_IMAGE_MAX_BYTES, BANNER_IMAGE_MAX_SIDE } from './routes.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

/** Images whose headers declare `width` × `height` (all an upload reads of them; nothing decodes the pixels). */
function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) =>
    Buffer.concat([Buffer.from([0, 0, 0, data.length]), Buffer.from(type), data, Buffer.alloc(4)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
function jpeg(width: number, height: number): Buffer {
  const frame = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x11,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
    frame,
    Buffer.from([0xff, 0xd9]),
  ]);
}
function webp(width: number, height: number): Buffer {
  const canvas = Buffer.alloc(10);
  canvas.writeUIntLE(width - 1, 4, 3);
  canvas.writeUIntLE(height - 1, 7, 3);
  const body = Buffer.concat([Buffer.from('WEBPVP8X'), Buffer.from([10, 0, 0, 0]), canvas]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
}
const PNG = png(1200, 400);
const JPEG = jpeg(1200, 400);
const WEBP = webp(1200, 400);

describe.each(databases)('banner images on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const upload = async (fileName: string, content: Buffer, type = 'image/png', headers = admin) => {
    const boundary = 'bannerboundary123';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return server.app.inject({
      method: 'POST',
      url: '/api/v1/banners/image',
      payload: body,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  };
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'a PNG, JPEG or WebP is stored under a random name and served back byte for byte, with its type, nosniff and a long cache',
    async () => {
      for (const [content, extension, type] of [
        [PNG, 'png', 'image/png'],
        [JPEG, 'jpg', 'image/jpeg'],
        [WEBP, 'webp', 'image/webp'],
      ] as const) {
        const posted = await upload(`../../My Banner.${extension}`, content, 'application/octet-stream');
        expect(posted.statusCode, posted.body).toBe(201);
        const { url } = (posted.json() as { data: { url: string } }).data;
        expect(url).toMatch(new RegExp(`^/api/v1/banners/images/[0-9a-f]{32}\\.${extension}$`));
        const fetched = await server.app.inject({ method: 'GET', url });
        expect(fetched.statusCode).toBe(200);
        expect(fetched.rawPayload.equals(content)).toBe(true);
        expect(fetched.headers['content-type']).toBe(type);
        expect(fetched.headers['x-content-type-options']).toBe('nosniff');
        expect(fetched.headers['cache-control']).toContain('max-age=31536000');
      }
      // The client's name is never part of the stored key.
      expect(
        [...server.storage.files.keys()].every((key) => /^banner-images\/[0-9a-f]{32}\.(png|jpg|webp)$/.test(key)),
      ).toBe(true);
    },
  );

  it.skipIf(skip)(
    'refused, with nothing stored: a text file named .png, an oversize image, no file, a read-only role',
    async () => {
      const before = server.storage.files.size;
      expect((await upload('banner.png', Buffer.from('hello, not an image'), 'image/png')).statusCode).toBe(415);
      expect(
        (await upload('banner.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'))
          .statusCode,
      ).toBe(415);
      const oversize = Buffer.concat([PNG, Buffer.alloc(BANNER_IMAGE_MAX_BYTES, 0)]);
      expect((await upload('big.png', oversize)).statusCode).toBe(413);
      const farTooBig = Buffer.concat([PNG, Buffer.alloc(BANNER_IMAGE_MAX_BYTES + 200 * 1024, 0)]);
      expect((await upload('huge.png', farTooBig)).statusCode).toBe(413);
      const noFile = await server.app.inject({
        method: 'POST',
        url: '/api/v1/banners/image',
        headers: { ...admin, 'content-type': 'application/json' },
        payload: {},
      });
      expect(noFile.statusCode).toBe(415);
      expect((await upload('banner.png', PNG, 'image/png', await server.auth('Read Only'))).statusCode).toBe(403);
      expect((await upload('banner.png', PNG, 'image/png', {})).statusCode).toBe(401);
      expect(server.storage.files.size).toBe(before);
    },
  );

  it.skipIf(skip)(
    'refused with a 400 naming the file, nothing stored: an image whose header declares more pixels than a browser should decode, or a damaged header',
    async () => {
      const before = server.storage.files.size;
      for (const image of [png(20_000, 20_000), jpeg(BANNER_IMAGE_MAX_SIDE + 1, 10), webp(7000, 7000)]) {
        const refused = await upload('bomb.img', image, 'application/octet-stream');
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json()).toMatchObject({
          errors: {
            file: expect.stringMatching(/^The image is \d+ × \d+ pixels; at most 8192 on a side and 40 megapixels\.$/),
          },
        });
      }
      const damaged = await upload('damaged.jpg', jpeg(1200, 400).subarray(0, 20));
      expect(damaged.statusCode, damaged.body).toBe(400);
      expect(damaged.json()).toMatchObject({
        errors: { file: 'The image cannot be read: its header is damaged or cut short.' },
      });
      // At the limit on a side, within the megapixels: accepted.
      expect((await upload('wide.png', png(BANNER_IMAGE_MAX_SIDE, 1000))).statusCode).toBe(201);
      expect(server.storage.files.size).toBe(before + 1);
    },
  );

  it.skipIf(skip)(
    'GET answers only the random-name pattern: unknown names 404, path traversal and other names are refused',
    async () => {
      const missing = await server.app.inject({ method: 'GET', url: `/api/v1/banners/images/${'a'.repeat(32)}.png` });
      expect(missing.statusCode).toBe(404);
      server.storage.files.set('uploads/secret.csv', Buffer.from('TOP-SECRET-CONTENT'));
      for (const name of [
        '..%2Fuploads%2Fsecret.csv',
        '..%2F..%2Fetc%2Fpasswd',
        '%2E%2E%2Fuploads%2Fsecret.csv',
        '..%5Cuploads%5Csecret.csv',
        `${'a'.repeat(32)}.svg`,
        `${'A'.repeat(32)}.png`,
        `${'a'.repeat(31)}.png`,
        `${'a'.repeat(32)}.png.csv`,
        `${'a'.repeat(32)}.png%00`,
      ]) {
        const response = await server.app.inject({ method: 'GET', url: `/api/v1/banners/images/${name}` });
        expect(response.statusCode, name).toBe(404);
        expect(response.body).not.toContain('TOP-SECRET-CONTENT');
      }
      for (const path of [
        '/api/v1/banners/images/../../uploads/secret.csv',
        '/api/v1/banners/images/..%2F..%2Fuploads/secret.csv',
      ]) {
        const response = await server.app.inject({ method: 'GET', url: path });
        expect(response.statusCode, path).not.toBe(200);
        expect(response.body).not.toContain('TOP-SECRET-CONTENT');
      }
    },
  );
});
