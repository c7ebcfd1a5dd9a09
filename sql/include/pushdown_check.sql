-- ====================================================================
-- pd_check(condition, foreign table, local copy), shared by the pushdown
-- test bodies: the ids the foreign table returns, the ids the local copy
-- returns, and whether the condition was shipped (no local Filter).
-- ====================================================================
CREATE OR REPLACE FUNCTION pd_check(cond text, tab text DEFAULT 'pd', loc text DEFAULT 'pd_local')
RETURNS TABLE (condition text, shipped boolean, same boolean, ids int[]) LANGUAGE plpgsql AS $$
DECLARE
  r int[];
  l int[];
  plan text := '';
  line text;
BEGIN
  EXECUTE format('SELECT array_agg(id ORDER BY id) FROM %s WHERE %s', tab, cond) INTO r;
  EXECUTE format('SELECT array_agg(id ORDER BY id) FROM %s WHERE %s', loc, cond) INTO l;
  FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM %s WHERE %s', tab, cond) LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN QUERY SELECT cond, plan NOT LIKE '%Filter:%', r IS NOT DISTINCT FROM l, r;
END $$;
