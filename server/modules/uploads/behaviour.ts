import { removeUploadRecords } from './tradePartitions.ts';
import { removeUploadFiles } from './uploadFiles.ts';
import { removeRejections } from './uploadRejections.ts';
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
    const storageKeys = await removeUploadFiles(tx, ids);
    await removeRejections(tx, ids);
    // Its own table goes whole (a million rows deleted one by one would take minutes and leave an empty table).
    for (const id of ids) await removeUploadRecords(tx, id);
    for (const key of storageKeys) await app.storage.remove(key);
  },
};
