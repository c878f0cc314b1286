import { removeUploadRecords } from './tradePartitions.ts';
import type { ResourceBehaviour } from '../resources/behaviours.ts';
import { DATA_UPLOAD_FIELDS } from '../../registry.ts';

/** What a new upload starts with, in the fields its contract names: waiting for its file, no rows yet. */
const { status, rowsTotal, rowsAccepted, rowsRejected } = DATA_UPLOAD_FIELDS;
const NEW_UPLOAD: Record<string, unknown> = {
  [status.field]: 'pending' satisfies (typeof status.values)[number],
  [rowsTotal.field]: 0,
  [rowsAccepted.field]: 0,
  [rowsRejected.field]: 0,
};

export const dataUploadBehaviour: ResourceBehaviour = {
  replaces: ['create', 'verify'],
  async prepare(values, change) {
    if (change.kind !== 'create') return;
    Object.assign(values, NEW_UPLOAD);
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
