-- What the manifest's migrations check before a change the stored rows must fit (a conversion, allowed values, a
-- new unique key or relation): they refuse, naming the rows, rather than fail on the first or lose any.

-- Whether a value (as text) is valid input for one of the types the manifest's fields are stored as. An exception
-- block per value: PostgreSQL 16's pg_input_is_valid would do, but 15 must be served too.
CREATE OR REPLACE FUNCTION value_converts(value text, target text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  CASE target
    WHEN 'text' THEN NULL;
    WHEN 'bigint' THEN PERFORM value::bigint;
    WHEN 'integer' THEN PERFORM value::integer;
    WHEN 'double precision' THEN PERFORM value::double precision;
    WHEN 'boolean' THEN PERFORM value::boolean;
    WHEN 'date' THEN PERFORM value::date;
    WHEN 'timestamptz' THEN PERFORM value::timestamptz;
    WHEN 'jsonb' THEN PERFORM value::jsonb;
    ELSE RAISE EXCEPTION 'value_converts: no conversion to %', target USING ERRCODE = 'feature_not_supported';
  END CASE;
  RETURN true;
EXCEPTION WHEN data_exception THEN
  RETURN false;
END
$$;

-- Stops the migration (its transaction rolls back) when `rows_query` lists rows (by id): how many, of which table,
-- why, and the first 20 ids; the query itself is the hint, to list them all.
CREATE OR REPLACE FUNCTION refuse_rows(table_name text, reason text, rows_query text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  first_ids text;
BEGIN
  EXECUTE format('SELECT count(*), string_agg(id::text, '', '' ORDER BY id) FILTER (WHERE place <= 20) FROM (SELECT id, row_number() OVER (ORDER BY id) AS place FROM (%s) AS listed) AS numbered', rows_query)
    INTO total, first_ids;
  IF total > 0 THEN
    RAISE EXCEPTION '% row(s) of % %: id %', total, table_name, reason, first_ids || CASE WHEN total > 20 THEN format(' and %s more', total - 20) ELSE '' END
      USING HINT = rows_query;
  END IF;
END
$$;
