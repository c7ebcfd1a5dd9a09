-- diff_expr(e, tab, form[, messages]): the check of one expression e as a
-- scan's one condition (the strfn, functions_more and pushdown_functions
-- suites), on the foreign table tab and its local copy tab_l. When
-- PostgreSQL raises evaluating e over the local copy, "(e) IS NULL" over
-- tab must raise the same: SQLSTATE (and with messages the message); error
-- is PostgreSQL's (with messages "SQLSTATE: message", and " / remote: ..."
-- when the two differ); shipped: no local Filter. Otherwise e is checked in
-- conditions built from its local values, each one's rows compared by
-- diff_check (sql/include/diff_check.sql): form 'values' one "e = v" a
-- distinct value (diff_match); form 'case' one "e = CASE WHEN id = n THEN v
-- ... END" over the rows whose value is not NULL, and "e IS NULL". shipped:
-- every condition sent (one Foreign Scan, no Filter); error: a foreign
-- condition's error.
\i sql/include/diff_check.sql
-- diff_match(e, value, type): a condition true exactly where e has that
-- value (NULL, NaN and the rest; -0 and 0 are one value).
CREATE OR REPLACE FUNCTION diff_match(e text, v text, ty text) RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN v IS NULL THEN format('(%s) IS NULL', e)
    WHEN ty IN ('double precision', 'real') AND v = 'NaN' THEN format('(%s) > ''Infinity''::float8', e)
    ELSE format('(%s) = %L::%s', e, v, ty) END
$$;
CREATE OR REPLACE FUNCTION diff_expr(e text, tab text, form text, messages boolean DEFAULT true,
                           OUT shipped boolean, OUT same boolean, OUT error text)
LANGUAGE plpgsql AS $$
DECLARE
  lerr text;
  rerr text;
  c text;
  d record;
  line text;
  conds text;
BEGIN
  shipped := true;
  same := true;
  BEGIN
    EXECUTE format('SELECT count((%s)::text) FROM %s_l', e, tab);
  EXCEPTION WHEN OTHERS THEN
    lerr := SQLSTATE || CASE WHEN messages THEN ': ' || SQLERRM ELSE '' END;
  END;
  IF lerr IS NOT NULL THEN
    FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM %s WHERE (%s) IS NULL', tab, e) LOOP
      IF line LIKE '%Filter:%' THEN shipped := false; END IF;
    END LOOP;
    BEGIN
      EXECUTE format('SELECT count(*) FROM %s WHERE (%s) IS NULL', tab, e);
    EXCEPTION WHEN OTHERS THEN
      rerr := SQLSTATE || CASE WHEN messages THEN ': ' || SQLERRM ELSE '' END;
    END;
    same := rerr IS NOT DISTINCT FROM lerr;
    error := CASE WHEN same OR NOT messages THEN lerr ELSE lerr || ' / remote: ' || coalesce(rerr, 'none') END;
    RETURN;
  END IF;
  IF form = 'case' THEN
    conds := format($q$SELECT format('(%%s) = CASE %%s END', %L,
                       string_agg(format('WHEN id = %%s THEN %%L::%%s', id, v, ty), ' ' ORDER BY id))
                     FROM (SELECT id, (%s)::text AS v, pg_typeof(%s)::text AS ty FROM %s_l) x
                     WHERE v IS NOT NULL HAVING count(*) > 0
                     UNION ALL SELECT format('(%%s) IS NULL', %L)$q$, e, e, e, tab, e);
  ELSE
    conds := format('SELECT DISTINCT diff_match(%L, (%s)::text, pg_typeof(%s)::text) FROM %s_l', e, e, e, tab);
  END IF;
  FOR c IN EXECUTE conds LOOP
    SELECT * INTO d FROM diff_check(format('SELECT id FROM %s WHERE %s', tab, c), tab, 'Filter:');
    shipped := shipped AND d.pushed;
    same := same AND d.same;
    error := coalesce(error, d.err);
  END LOOP;
END $$;
