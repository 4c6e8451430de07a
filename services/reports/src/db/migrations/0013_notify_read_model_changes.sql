-- Every change to the read model, whoever makes it (the projector of any replica,
-- an import, plain SQL), notifies `rex_read_model_changed` when its transaction
-- commits: each replica listens and forgets the report counts it keeps
-- (REPORT_COUNT_CACHE_MS). A statement that changes no row notifies too; a
-- transaction notifies once per table. A table added to the schema later needs
-- the same trigger (a test checks every table has it).
CREATE FUNCTION reports.notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rex_read_model_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

DO $$
DECLARE
  name text;
BEGIN
  FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = 'reports' AND tablename <> 'schema_migrations' LOOP
    EXECUTE format(
      'CREATE TRIGGER notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reports.%I FOR EACH STATEMENT EXECUTE FUNCTION reports.notify_change()',
      name
    );
  END LOOP;
END
$$;
