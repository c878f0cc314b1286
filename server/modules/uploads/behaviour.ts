import { removeUploadRecords } from './tradePartitions.ts';
import { removeUploadFiles } from './uploadFiles.ts';
import { removeRejections } from './uploadRejections.ts';
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
    const storageKeys = await removeUploadFiles(tx, ids);
    await removeRejections(tx, ids);
    // Its own table goes whole (a million rows deleted one by one would take minutes and leave an empty table).
    for (const id of ids) await removeUploadRecords(tx, id);
    for (const key of storageKeys) await app.storage.remove(key);
  },
};
