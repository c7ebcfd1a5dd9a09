-- show_error(sql): run sql and show the error it raises, field by field:
-- SQLSTATE, message, DETAIL (query ids, which differ from run to run,
-- masked) and the "remote SQL command" line of CONTEXT (without the
-- " FORMAT Native" that HTTP requests end with). No error: no rows.
CREATE FUNCTION show_error(q text) RETURNS TABLE (field text, value text)
LANGUAGE plpgsql AS $$
DECLARE
  s text; m text; d text; c text;
BEGIN
  EXECUTE q;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT,
                          d = PG_EXCEPTION_DETAIL, c = PG_EXCEPTION_CONTEXT;
  RETURN QUERY VALUES ('sqlstate', s), ('message', m),
    ('detail', regexp_replace(d, 'query id "[^"]*"', 'query id "..."', 'g')),
    ('context', regexp_replace(substring(c from 'remote SQL command: [^\n]*'),
                               ' FORMAT Native$', ''));
END $$;
