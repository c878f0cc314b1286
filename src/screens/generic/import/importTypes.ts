/** The import endpoints' answers as the screen reads them (docs/api.md, "Import"). */
export interface ImportField {
  name: string;
  title: string;
  required: boolean;
  /** Rows are matched to records on this field. */
  key: boolean;
}

export interface UploadedFile {
  id: number;
  file_name: string;
  headings: string[];
  rows: number;
  mapping: Record<string, string | null>;
  fields: ImportField[];
}

export type Outcome = 'create' | 'update' | 'unchanged' | 'error';

export interface DryRunRow {
  line: number;
  outcome: Outcome;
  cells: string[];
  errors: Record<string, string>;
  changed: string[];
}

export interface DryRunResult {
  counts: Record<Outcome, number>;
  rows: DryRunRow[];
}

export const OUTCOME_LABELS: Record<Outcome, string> = {
  create: 'To create',
  update: 'To update',
  unchanged: 'Unchanged',
  error: 'In error',
};
