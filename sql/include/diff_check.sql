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
-- diff_rows(query, ordered): its rows as text, sorted, and in its order (if ordered)
CREATE OR REPLACE FUNCTION diff_rows(q text, ordered boolean, OUT sorted text[], OUT in_order text[])
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT array_agg(t::text ORDER BY t::text COLLATE "C") FROM (%s) t', q) INTO sorted;
  IF ordered THEN
    EXECUTE format('SELECT array_agg(t::text) FROM (%s) t', q) INTO in_order;
  END IF;
END $$;
CREATE OR REPLACE FUNCTION diff_check(q text, tables text, forbidden text, ordered boolean DEFAULT false,
                           both_errors boolean DEFAULT false, OUT pushed boolean,
                           OUT same boolean, OUT nrows int, OUT err text) LANGUAGE plpgsql AS $$
DECLARE
  r text[];
  ro text[];
  l text[];
  lo text[];
  plan text := '';
  line text;
  lq text := regexp_replace(q, '\m(' || tables || ')\M', '\1_l', 'g');
  lerr text;
BEGIN
  err := NULL;
  BEGIN
    SELECT d.sorted, d.in_order INTO r, ro FROM diff_rows(q, ordered) d;
  EXCEPTION WHEN OTHERS THEN
    err := CASE WHEN both_errors THEN SQLSTATE ELSE SQLERRM END;
  END;
  BEGIN
    SELECT d.sorted, d.in_order INTO l, lo FROM diff_rows(lq, ordered) d;
  EXCEPTION WHEN OTHERS THEN
    IF NOT both_errors THEN
      RAISE;
    END IF;
    lerr := SQLSTATE;
  END;
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
