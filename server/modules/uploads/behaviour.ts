import { deleteTradeRecordsOf } from './tradeRecords.ts';
import type { ResourceBehaviour } from '../resources/behaviours.ts';

export const dataUploadBehaviour: ResourceBehaviour = {
  replaces: ['create'],
  async afterDelete(ids, { app, tx }) {
    const files = await tx.query<{ storage_key: string | null }>('DELETE FROM upload_files WHERE upload_id = ANY($1::bigint[]) RETURNING storage_key', [ids]);
    await tx.query('DELETE FROM upload_rejections WHERE upload_id = ANY($1::bigint[])', [ids]);
    await deleteTradeRecordsOf(tx, ids);
    for (const file of files) if (file.storage_key) await app.storage.remove(file.storage_key);
  },
};
