import type { ReactNode } from 'react';
import { MODULE } from '../../../../contract/modules.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { useUploadProgressCells } from '../../custom/uploads/UploadProgressCell.tsx';
import type { Row } from '../../shared/formatValue.ts';

/** A cell a module shows in its own way, or undefined for the list's own. */
export type CellRenderer = (columnId: string, row: Row) => ReactNode | undefined;

/** The cells of a list that some module shows in its own way: today the uploads' status, live while they are processed. */
export function useListCells(
  resource: ResourceDescription,
  rows: readonly Row[],
  listKey: readonly unknown[],
): CellRenderer | undefined {
  return useUploadProgressCells(resource.module === MODULE.dataUploadLogs ? resource : null, rows, listKey);
}
