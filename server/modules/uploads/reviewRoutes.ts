import type { FastifyInstance } from 'fastify';
import type { ReviewThresholds, UploadReviewAnswer } from '../../../contract/uploadReview.ts';
import { errorAnswers } from '../../http/answers.ts';
import { HttpError, notFound, validationError } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { currentUser, permission } from '../auth/access.ts';
import { actorOf, fieldChanges, recordAudit } from '../audit/record.ts';
import { recordSchema } from '../resources/answers.ts';
import { ResourceTable } from '../resources/sql.ts';
import { markVerified, verificationOf } from '../resources/verifications.ts';
import { keepReviewReason, lockForDecision, publishUpload, rejectUpload, storedReview } from './review.ts';
import { tellOfReview } from './reviewNotices.ts';
import { reviewMonths, reviewSamples } from './reviewSamples.ts';
import { reasonBody, reviewAnswers, thresholdsBody } from './reviewSchemas.ts';
import { DEFAULT_THRESHOLDS, reviewThresholds, saveReviewThresholds } from './reviewSettings.ts';

const NOT_HELD = 'Only an upload waiting for review can be published or rejected.';

/**
 * Review before publishing (docs/api.md): the thresholds an import is held by, an upload's stored comparison with
 * its chart and samples, and a reviewer's publish or reject. Every route needs the uploads' `verify`.
 */
export async function uploadReviewRoutes(app: FastifyInstance): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads?.actions.includes('verify')) return;
  const { db } = app;
  const table = new ResourceTable(uploads);
  const answers = reviewAnswers(recordSchema(uploads));
  const tags = [uploads.label];
  const verify = permission(MODULE.dataUploadLogs, 'verify');

  app.get('/uploads/review-settings', {
    config: { access: verify },
    schema: {
      tags,
      operationId: 'getUploadReviewSettings',
      summary: 'The thresholds beyond which an import waits for review',
      response: { 200: answers.settings, ...errorAnswers(401, 403) },
    },
    handler: async () => ({ data: { thresholds: await reviewThresholds(db), defaults: DEFAULT_THRESHOLDS } }),
  });

  app.put<{ Body: Partial<ReviewThresholds> }>('/uploads/review-settings', {
    config: { access: verify, audit: { action: 'update' } },
    schema: {
      tags,
      operationId: 'setUploadReviewSettings',
      summary: 'Change thresholds beyond which an import waits for review',
      description:
        'Any of the thresholds; the others keep their value. Imports that end from then on are checked against them.',
      body: thresholdsBody,
      response: { 200: answers.settings, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const thresholds = await db.transaction(async (tx) => {
        const { before, after } = await saveReviewThresholds(
          tx,
          { ...(await reviewThresholds(tx)), ...request.body },
          user.id,
        );
        const changes = fieldChanges(
          before as unknown as Record<string, unknown>,
          after as unknown as Record<string, unknown>,
        );
        await recordAudit(tx, actorOf(request), {
          module: MODULE.dataUploadLogs,
          recordId: null,
          action: 'update',
          changes,
          details: { setting: 'review thresholds' },
        });
        return after;
      });
      return { data: { thresholds, defaults: DEFAULT_THRESHOLDS } };
    },
  });

  app.get<{ Params: { id: number } }>('/uploads/:id/review', {
    config: { access: verify },
    schema: {
      tags,
      operationId: 'getUploadReview',
      summary:
        "An upload's comparison with the last published month, the months for a chart, and rows behind each flagged check",
      params: idParams,
      response: { 200: answers.review, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = request.params.id;
      const upload = await table.get(db, id, null);
      if (!upload) throw notFound('Upload');
      const [stored, verification] = await Promise.all([
        storedReview(db, id),
        verificationOf(db, MODULE.dataUploadLogs, id),
      ]);
      const review = stored?.review ?? null;
      const held = {
        id,
        country_id: (upload.country_id as number | null) ?? null,
        trade_direction: String(upload.trade_direction),
        period: String(upload.period),
        rows_accepted: (upload.rows_accepted as number | null) ?? null,
      };
      const answer: UploadReviewAnswer = {
        upload_id: id,
        status: String(upload.status),
        review,
        decision:
          stored && verification?.verified_at
            ? {
                by: verification.verified_by === null ? null : Number(verification.verified_by),
                at: new Date(verification.verified_at).toISOString(),
                reason: stored.reason,
              }
            : null,
        months: await reviewMonths(db, held, review),
        samples: review && upload.status !== 'replaced' ? await reviewSamples(db, held, review) : [],
      };
      return { data: answer };
    },
  });

  const decide = (decision: 'publish' | 'reject') =>
    app.post<{ Params: { id: number }; Body: { reason: string } }>(`/uploads/:id/${decision}`, {
      config: { access: verify, audit: { action: decision } },
      schema: {
        tags,
        operationId: decision === 'publish' ? 'publishUpload' : 'rejectUpload',
        summary:
          decision === 'publish'
            ? 'Publish an upload waiting for review'
            : 'Reject an upload waiting for review (its records are removed)',
        description: `\`reason\` is kept with the upload's history (required; 400 naming it when missing or blank). 409 when the upload is not waiting for review.`,
        params: idParams,
        body: reasonBody,
        response: { 200: answers.decided, ...errorAnswers(400, 401, 403, 404, 409) },
      },
      handler: async (request) => {
        const id = request.params.id;
        const reason = request.body.reason.trim();
        if (!reason) throw validationError({ reason: 'Say why.' });
        if (!(await table.get(db, id, null))) throw notFound('Upload');
        const user = currentUser(request);
        await db.transaction(async (tx) => {
          const held = await lockForDecision(tx, id);
          if (held?.status !== 'needs_review') throw new HttpError(409, NOT_HELD);
          const entry = { actor: actorOf(request), action: decision, details: { reason } };
          if (decision === 'publish') await publishUpload(app, tx, held, entry);
          else await rejectUpload(app, tx, id, entry);
          await keepReviewReason(tx, id, reason);
          await markVerified(tx, MODULE.dataUploadLogs, id, user.id);
          const news = decision === 'publish' ? 'published' : 'rejected';
          await tellOfReview(app, tx, {
            uploadId: id,
            fileName: held.fileName,
            uploaderId: held.uploaderId,
            news,
            detail: `${user.email}: ${reason}`,
            reviewers: true,
          });
        });
        if (decision === 'publish') app.uploads.published(id);
        return {
          data: await table.get(db, id, null),
          message:
            decision === 'publish' ? 'The upload is published.' : 'The upload is rejected and its records removed.',
        };
      },
    });
  decide('publish');
  decide('reject');
}
