import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { imageSize } from 'image-size';
import type { Access } from '../auth/access.ts';
import { dataAnswer, errorAnswers, type Answer, wholeObject } from '../../http/answers.ts';
import { HttpError, notFound, validationError } from '../../http/errors.ts';
import { multipartFileBody } from '../../http/requestSchemas.ts';
import { MODULE, resource } from '../../registry.ts';
import { multipartBoundary, parseMultipart } from '../uploads/multipart.ts';
import { actorOf, recordAudit } from '../audit/record.ts';

/** The only names GET banners/images/:name answers: the random names the banner image upload gives (32 hex digits). */
export const BANNER_IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
export const BANNER_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/**
 * The pixels a banner image may have. The server never decodes an image, but every browser that shows the banner
 * does: a few hundred bytes can declare 20,000 × 20,000 pixels (1.6 GB once decoded).
 */
export const BANNER_IMAGE_MAX_SIDE = 8192;
export const BANNER_IMAGE_MAX_PIXELS = 40_000_000;
const BANNER_MODULE = MODULE.banners;
const MULTIPART_OVERHEAD = 64 * 1024;
const STORAGE_FOLDER = 'banner-images';

type ImageKind = { extension: 'png' | 'jpg' | 'webp'; contentType: string };
const CONTENT_TYPES: Record<ImageKind['extension'], string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/** The image kind the file's first bytes prove (magic numbers), whatever its name or declared type say. */
export function imageKind(data: Buffer): ImageKind | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length >= png.length && png.every((byte, index) => data[index] === byte))
    return { extension: 'png', contentType: CONTENT_TYPES.png };
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff)
    return { extension: 'jpg', contentType: CONTENT_TYPES.jpg };
  if (
    data.length >= 12 &&
    data.subarray(0, 4).toString('latin1') === 'RIFF' &&
    data.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return { extension: 'webp', contentType: CONTENT_TYPES.webp };
  }
  return null;
}

/** The reason an image's declared size is refused (read from its header), or null when it is within the limits. */
export function imageSizeRefusal(data: Buffer): string | null {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(data);
  } catch {
    return 'The image cannot be read: its header is damaged or cut short.';
  }
  const { width = 0, height = 0 } = size;
  if (width <= 0 || height <= 0) return 'The image declares no size.';
  if (width > BANNER_IMAGE_MAX_SIDE || height > BANNER_IMAGE_MAX_SIDE || width * height > BANNER_IMAGE_MAX_PIXELS) {
    return `The image is ${width} × ${height} pixels; at most ${BANNER_IMAGE_MAX_SIDE} on a side and ${BANNER_IMAGE_MAX_PIXELS / 1_000_000} megapixels.`;
  }
  return null;
}

/** Banner images (docs/api.md, "Beyond CRUD"): upload one for a banner form, and serve it back. */
export async function bannerImageRoutes(app: FastifyInstance): Promise<void> {
  const banners = resource(BANNER_MODULE);
  if (!banners) return;
  const base = `/${banners.api}`;
  const canUpload: Access = {
    anyOf: [
      { module: BANNER_MODULE, action: 'add' },
      { module: BANNER_MODULE, action: 'edit' },
    ],
  };
  const tags = [banners.label];
  const imageTypes = Object.values(CONTENT_TYPES);
  const image: Answer = {
    description: 'The image.',
    content: Object.fromEntries(
      imageTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
    ),
  };

  // This plugin's own multipart parser (plugins are encapsulated): the body is buffered up to the image limit.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: BANNER_IMAGE_MAX_BYTES + MULTIPART_OVERHEAD },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.post(`${base}/image`, {
    config: { access: canUpload, audit: { action: 'upload' } },
    bodyLimit: BANNER_IMAGE_MAX_BYTES + MULTIPART_OVERHEAD,
    schema: {
      tags,
      operationId: 'uploadBannerImage',
      summary: 'Upload a banner image',
      description: `A PNG, JPEG or WebP (judged by its first bytes, else 415) of at most ${BANNER_IMAGE_MAX_BYTES / 1024 / 1024} MiB (else 413) and ${BANNER_IMAGE_MAX_SIDE} pixels on a side, ${BANNER_IMAGE_MAX_PIXELS / 1_000_000} megapixels in all (as its header declares; else 400), stored under a random name; \`url\` is for the banner's \`image_url\`.`,
      body: multipartFileBody(imageTypes),
      response: {
        201: dataAnswer(
          'Stored.',
          wholeObject({ url: { type: 'string', description: `A same-origin path: /api/v1${base}/images/<name>.` } }),
          { message: true },
        ),
        ...errorAnswers(400, 401, 403, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const data = imageFileOf(request);
      if (data.length === 0) throw validationError({ file: 'The file is empty.' });
      if (data.length > BANNER_IMAGE_MAX_BYTES)
        throw new HttpError(413, `The image is larger than ${BANNER_IMAGE_MAX_BYTES / 1024 / 1024} MiB.`);
      const kind = imageKind(data);
      if (!kind) throw new HttpError(415, 'Only PNG, JPEG or WebP images can be uploaded.');
      const refusal = imageSizeRefusal(data);
      if (refusal) throw validationError({ file: refusal });
      // The client's file name is never used: the image is stored under a random name.
      const name = `${randomBytes(16).toString('hex')}.${kind.extension}`;
      const key = `${STORAGE_FOLDER}/${name}`;
      const url = `/api/v1${base}/images/${name}`;
      await app.storage.put(key, Buffer.from(data));
      // The image belongs to no banner yet (the form saves its url later): the entry names the file, and without it
      // the file is not kept.
      await app.db
        .transaction((tx) =>
          recordAudit(tx, actorOf(request), {
            module: BANNER_MODULE,
            action: 'upload',
            details: { url, bytes: data.length, type: kind.contentType },
          }),
        )
        .catch(async (error: unknown) => {
          await app.storage.remove(key);
          throw error;
        });
      reply.code(201);
      return { data: { url }, message: 'The image was uploaded.' };
    },
  });

  // Public: the console shows it in an <img>, which sends no Authorization header; the name is unguessable.
  app.get<{ Params: { name: string } }>(`${base}/images/:name`, {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'getBannerImage',
      summary: 'A banner image',
      description: `Public, as an \`<img>\` sends no token; names are random (\`${BANNER_IMAGE_NAME.source}\`: any other name is a 404). Cached for a year (immutable).`,
      response: { 200: image, ...errorAnswers(400, 404) },
    },
    handler: async (request, reply) => {
      const { name } = request.params;
      const match = BANNER_IMAGE_NAME.exec(name);
      if (!match) throw notFound('Image');
      let data: Buffer;
      try {
        data = await app.storage.get(`${STORAGE_FOLDER}/${name}`);
      } catch (error) {
        if (isMissing(error)) throw notFound('Image');
        throw error;
      }
      return reply
        .header('content-type', CONTENT_TYPES[match[1] as ImageKind['extension']])
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-disposition', 'inline')
        .send(data);
    },
  });
}

function imageFileOf(request: FastifyRequest): Buffer {
  const boundary = multipartBoundary(request.headers['content-type']);
  const parts = boundary && Buffer.isBuffer(request.body) ? parseMultipart(request.body, boundary) : null;
  if (!parts) throw new HttpError(415, 'Send the image as multipart/form-data in the field "file".');
  const file = parts.find((part) => part.name === 'file' && part.filename !== null);
  if (!file) throw validationError({ file: 'This field is required' });
  return file.data;
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}
