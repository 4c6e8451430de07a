-- Every change to the auth schema, whoever makes it (the admin CLI, an import,
-- plain SQL), notifies `rex_auth_changed` when its transaction commits: each
-- gateway replica listens and empties its authentication caches at once.
-- A table added to the schema later needs the same trigger.
CREATE FUNCTION auth.notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rex_auth_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

DO $$
DECLARE
  name text;
BEGIN
  FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = 'auth' AND tablename <> 'schema_migrations' LOOP
    EXECUTE format(
      'CREATE TRIGGER notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON auth.%I FOR EACH STATEMENT EXECUTE FUNCTION auth.notify_change()',
      name
    );
  END LOOP;
END
$$;
