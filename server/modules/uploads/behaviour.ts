import { removeUploadRecords } from './tradePartitions.ts';
import type { ResourceBehaviour } from '../resources/behaviours.ts';
import { MODULE, entityResource, field } from '../../registry.ts';

/** What a new upload starts with, for the fields the manifest gives it: waiting for its file, no rows yet. */
const NEW_UPLOAD: Record<string, unknown> = { status: 'pending', rows_total: 0, rows_accepted: 0, rows_rejected: 0 };

export const dataUploadBehaviour: ResourceBehaviour = {
  replaces: ['create', 'verify'],
  async prepare(values, change) {
    if (change.kind !== 'create') return;
    const uploads = entityResource(MODULE.dataUploadLogs);
    for (const [name, value] of Object.entries(NEW_UPLOAD))
      if (uploads && field(uploads.entity, name)) values[name] = value;
  },
  async afterDelete(ids, { app, tx }) {
    const files = await tx.query<{ storage_key: string | null }>(
      'DELETE FROM upload_files WHERE upload_id = ANY($1::bigint[]) RETURNING storage_key',
      [ids],
    );
    await tx.query('DELETE FROM upload_rejections WHERE upload_id = ANY($1::bigint[])', [ids]);
    // Its own table goes whole (a million rows deleted one by one would take minutes and leave an empty table).
    for (const id of ids) await removeUploadRecords(tx, id);
    for (const file of files) if (file.storage_key) await app.storage.remove(file.storage_key);
  },
};
