-- Trade records partitioned by month (period), and within a month by upload: a month is a partition of
-- trade_records, and each upload's records are a table of their own, attached to their month when the upload is
-- published, so an upload is loaded (COPY into a table nobody reads, indexed afterwards), replaced and removed as a
-- unit. Rows whose month or upload has no partition of its own (records written before this migration, or by
-- anything but an import) go to the default partitions. Every unique key holds upload_id, the column trade records
-- would be distributed by (docs/deploy.md).

DO $$
BEGIN
  PERFORM refuse_rows('trade_records', 'have no period, so they belong to no month', 'SELECT id FROM trade_records WHERE period IS NULL');
END
$$;

ALTER TABLE trade_records RENAME TO trade_records_unpartitioned;
DROP INDEX IF EXISTS trade_records_filter_idx;
DROP INDEX IF EXISTS trade_records_hs_code_idx;
DROP INDEX IF EXISTS trade_records_upload_idx;
DROP INDEX IF EXISTS trade_records_search_idx;

CREATE SEQUENCE IF NOT EXISTS trade_record_ids;
SELECT setval('trade_record_ids', greatest((SELECT max(id) FROM trade_records_unpartitioned), 0) + 1, false);

CREATE TABLE trade_records (
  id bigint NOT NULL DEFAULT nextval('trade_record_ids'),
  upload_id bigint NOT NULL,
  country_id bigint,
  trade_direction text,
  period text NOT NULL,
  shipment_date date NOT NULL,
  hs_code text NOT NULL,
  product_description text NOT NULL,
  quantity double precision NOT NULL,
  unit text NOT NULL,
  value double precision NOT NULL,
  importer text,
  exporter text,
  origin_country text,
  destination_country text,
  port_of_loading text,
  port_of_discharge text,
  extra jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, upload_id, period)
) PARTITION BY LIST (period);
ALTER SEQUENCE trade_record_ids OWNED BY trade_records.id;

-- The report's page: newest shipment first, keyset on (shipment_date, id), over everything or one country and
-- direction (a month and an upload are partitions, so they need no column of an index).
CREATE INDEX trade_records_newest_idx ON trade_records (shipment_date DESC, id DESC);
CREATE INDEX trade_records_country_newest_idx ON trade_records (country_id, trade_direction, shipment_date DESC, id DESC);

CREATE TABLE trade_records_other_months PARTITION OF trade_records DEFAULT;

-- A month with records gets its partition now (an import makes the others on demand), its records in the month's
-- default partition: they were written before uploads had tables of their own.
DO $$
DECLARE
  month text;
BEGIN
  FOR month IN SELECT DISTINCT period FROM trade_records_unpartitioned WHERE period ~ '^\d{4}-\d{2}$' LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF trade_records FOR VALUES IN (%L) PARTITION BY LIST (upload_id)', 'trade_records_' || replace(month, '-', '_'), month);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', 'trade_records_' || replace(month, '-', '_') || '_other_uploads', 'trade_records_' || replace(month, '-', '_'));
  END LOOP;
END
$$;

INSERT INTO trade_records (id, upload_id, country_id, trade_direction, period, shipment_date, hs_code, product_description, quantity, unit, value,
                           importer, exporter, origin_country, destination_country, port_of_loading, port_of_discharge, extra, created_at)
SELECT id, upload_id, country_id, trade_direction, period, shipment_date, hs_code, product_description, quantity, unit, value,
       importer, exporter, origin_country, destination_country, port_of_loading, port_of_discharge, extra, created_at
  FROM trade_records_unpartitioned;
DROP TABLE trade_records_unpartitioned;

-- Text search within a month: a trigram index on each table of records (an upload's is built once it is published).
DO $$
DECLARE
  leaf text;
BEGIN
  FOR leaf IN SELECT c.relname FROM pg_partition_tree('trade_records') t JOIN pg_class c ON c.oid = t.relid WHERE t.isleaf LOOP
    EXECUTE format('CREATE INDEX %I ON %I USING gin ((lower(coalesce(product_description, '''') || '' '' || coalesce(hs_code, '''') || '' '' || coalesce(importer, '''') || '' '' || coalesce(exporter, ''''))) gin_trgm_ops)', leaf || '_search', leaf);
  END LOOP;
END
$$;

-- An import's progress, written on its own while the import's transaction runs (which no one else can see into), so
-- that every instance shows it; and the request to cancel it, which the importing instance reads as it writes.
CREATE TABLE IF NOT EXISTS upload_progress (
  upload_id bigint PRIMARY KEY,
  bytes_total bigint,
  bytes_read bigint NOT NULL DEFAULT 0,
  rows_read bigint NOT NULL DEFAULT 0,
  rows_accepted bigint NOT NULL DEFAULT 0,
  rows_rejected bigint NOT NULL DEFAULT 0,
  started_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  cancel_requested_at timestamptz,
  cancel_requested_by bigint
);

-- A rejected row as it was in the file (its fields, as CSV), for the download of rejections.
ALTER TABLE upload_rejections ADD COLUMN IF NOT EXISTS row_text text;

-- The uploader confirmed that this upload replaces what is published for its country, trade direction and period.
ALTER TABLE upload_files ADD COLUMN IF NOT EXISTS replaces_published boolean NOT NULL DEFAULT false;
