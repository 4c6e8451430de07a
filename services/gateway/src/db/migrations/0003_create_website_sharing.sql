-- Website agreements: a website shares its records with another for some
-- tasks (R reporting, V verification, D data_flow, M moderation, P peer_review,
-- E editing). Callers of the receiving website see them in that scope.
CREATE TABLE auth.website_sharing (
  from_website_id bigint NOT NULL REFERENCES auth.websites (id),
  to_website_id bigint NOT NULL REFERENCES auth.websites (id),
  tasks char(1)[] NOT NULL,
  PRIMARY KEY (from_website_id, to_website_id),
  CHECK (from_website_id <> to_website_id)
);
