/** What an upload's log and the uploads' progress answer of its import while it runs, as every instance reads it. */
export interface ImportProgress {
  bytes_total: number | null;
  bytes_read: number;
  rows_read: number;
  rows_accepted: number;
  rows_rejected: number;
  started_at: string | null;
  updated_at: string;
  /** Rows read per second since the import started. */
  rows_per_second: number | null;
  /** Seconds until the whole file is read at the rate so far. */
  seconds_left: number | null;
  cancel_requested: boolean;
}
