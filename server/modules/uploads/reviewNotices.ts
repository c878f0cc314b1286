// Who hears of a review (docs/api.md, "Review before publishing"): the uploader, and every active user whose role may
// review uploads (`verify`), in the console and by e-mail, each with a link to the upload's page.
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { MODULE } from '../../registry.ts';
import { publicOrigin } from '../auth/emailLinks.ts';
import { recordLink } from '../notifications/store.ts';
import { tellPerson, type Listener } from '../notifications/tellPerson.ts';

export type ReviewNews = 'needs_review' | 'published' | 'rejected';

export interface ReviewNotice {
  uploadId: number;
  fileName: string;
  /** The uploader, told of every outcome (null: an upload whose uploader is unknown). */
  uploaderId: number | null;
  news: ReviewNews;
  /** What follows the news: the checks beyond their threshold, or the reviewer's reason. */
  detail: string;
  /** Whether the reviewers are told too (a month published at once concerns its uploader only). */
  reviewers: boolean;
}

/** Each headline around the file's name as given (plain for e-mail, bold HTML for the console); the rest is plain words. */
const HEADLINES: Record<ReviewNews, (file: string) => string> = {
  needs_review: (file) => `Upload ${file} is waiting for review before customers see it`,
  published: (file) => `Upload ${file} is published`,
  rejected: (file) => `Upload ${file} was rejected; its records were removed`,
};

/** Tells the people of an upload's review, in the caller's transaction (the e-mails leave only if it commits). */
export async function tellOfReview(app: FastifyInstance, tx: Queryable, notice: ReviewNotice): Promise<void> {
  const people = await tx.query<Listener>(
    `SELECT u.id, u.email, u.first_name FROM users u
      WHERE u.is_active AND (u.id = $1 OR ($2 AND EXISTS (SELECT 1 FROM role_permissions p WHERE p.role_id = u.role_id AND p.module = $3 AND p.action = 'verify')))
      ORDER BY u.id`,
    [notice.uploaderId, notice.reviewers, MODULE.dataUploadLogs],
  );
  const link = recordLink(MODULE.dataUploadLogs, 'view_detail', notice.uploadId);
  const headline = HEADLINES[notice.news];
  const news = {
    subject: headline(notice.fileName),
    html: `${headline(`<b>${escapeHtml(notice.fileName)}</b>`)}: ${escapeHtml(notice.detail)}`,
    text: `${headline(notice.fileName)}: ${notice.detail}`,
    link,
    opens: 'the upload',
  };
  for (const person of people) await tellPerson(tx, person, news, publicOrigin(app));
}
