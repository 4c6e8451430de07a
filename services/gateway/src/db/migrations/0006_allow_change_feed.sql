-- A client connection reads the change feed only when its operator allows it.
ALTER TABLE auth.client_connections ADD COLUMN allow_change_feed boolean NOT NULL DEFAULT false;
