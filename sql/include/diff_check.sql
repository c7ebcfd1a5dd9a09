-- diff_check(query, tables, forbidden[, ordered[, both_errors]]): the
-- differential check of the pushdown suites. The query runs on the foreign
-- tables and on their local copies (every table name matching the regular
-- expression `tables` gets the suffix _l); rows are compared as sorted
-- multisets and, if ordered, also in order. pushed: the plan is one Foreign
-- Scan and names nothing matching `forbidden` (the nodes that would mean
-- PostgreSQL computed part of it). An error of the foreign query is returned
-- in err (its message; with both_errors its SQLSTATE, and the local query's
-- SQLSTATE must be the same for same to be true; without, a local error is
-- raised).
CREATE OR REPLACE FUNCTION diff_check(q text, tables text, forbidden text, ordered boolean DEFAULT false,
                           both_errors boolean DEFAULT false, OUT pushed boolean,
                           OUT same boolean, OUT nrows int, OUT err text) LANGUAGE plpgsql AS $$
DECLARE
  r text[];
  l text[];
  ro text[];
  lo text[];
  plan text := '';
  line text;
  lq text := regexp_replace(q, '\m(' || tables || ')\M', '\1_l', 'g');
  lerr text;
BEGIN
  err := NULL;
  BEGIN
    EXECUTE format('SELECT array_agg(t::text ORDER BY t::text COLLATE "C") FROM (%s) t', q) INTO r;
    IF ordered THEN
      EXECUTE format('SELECT array_agg(t::text) FROM (%s) t', q) INTO ro;
    END IF;
  EXCEPTION WHEN OTHERS THEN
    err := CASE WHEN both_errors THEN SQLSTATE ELSE SQLERRM END;
  END;
  IF both_errors THEN
    BEGIN
      EXECUTE format('SELECT array_agg(t::text ORDER BY t::text COLLATE "C") FROM (%s) t', lq) INTO l;
      IF ordered THEN
        EXECUTE format('SELECT array_agg(t::text) FROM (%s) t', lq) INTO lo;
      END IF;
    EXCEPTION WHEN OTHERS THEN
      lerr := SQLSTATE;
    END;
  ELSE
    EXECUTE format('SELECT array_agg(t::text ORDER BY t::text COLLATE "C") FROM (%s) t', lq) INTO l;
    IF ordered THEN
      EXECUTE format('SELECT array_agg(t::text) FROM (%s) t', lq) INTO lo;
    END IF;
  END IF;
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  plan := regexp_replace(plan, 'Relations: [^\n]*', '', 'g');
  pushed := (length(plan) - length(replace(plan, 'Foreign Scan', ''))) / 12 = 1
    AND plan !~ forbidden;
  same := CASE WHEN both_errors THEN err IS NOT DISTINCT FROM lerr ELSE err IS NULL END
    AND r IS NOT DISTINCT FROM l AND (NOT ordered OR ro IS NOT DISTINCT FROM lo);
  nrows := coalesce(cardinality(l), 0);
END $$;
