-- Who may call the API: websites, their users and roles, and REST clients with their connections.
CREATE TABLE auth.websites (
  id bigserial PRIMARY KEY,
  title text NOT NULL,
  url text NOT NULL,
  staging_urls text[] NOT NULL DEFAULT '{}',
  password text NOT NULL,
  public_key text,
  allow_anon_jwt_post boolean NOT NULL DEFAULT false,
  deleted boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now(),
  updated_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX websites_url ON auth.websites (url) WHERE NOT deleted;

CREATE TABLE auth.users (
  id bigserial PRIMARY KEY,
  username text NOT NULL UNIQUE,
  email text,
  deleted boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now(),
  updated_on timestamptz NOT NULL DEFAULT now()
);

-- Roles: 1 admin, 2 editor, 3 user.
CREATE TABLE auth.users_websites (
  user_id bigint NOT NULL REFERENCES auth.users (id),
  website_id bigint NOT NULL REFERENCES auth.websites (id),
  site_role_id smallint NOT NULL CHECK (site_role_id IN (1, 2, 3)),
  banned boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, website_id)
);

CREATE TABLE auth.clients (
  id bigserial PRIMARY KEY,
  username text NOT NULL UNIQUE,
  title text,
  website_id bigint REFERENCES auth.websites (id),
  secret_hash text NOT NULL,
  public_key text,
  deleted boolean NOT NULL DEFAULT false
);

CREATE TABLE auth.client_connections (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES auth.clients (id),
  proj_id text NOT NULL,
  website_id bigint NOT NULL REFERENCES auth.websites (id),
  title text NOT NULL,
  sharing char(1) NOT NULL DEFAULT 'R' CHECK (sharing IN ('R', 'V', 'D', 'M', 'P', 'E')),
  allow_reports boolean NOT NULL DEFAULT true,
  limit_to_reports text[],
  allow_data_resources boolean NOT NULL DEFAULT true,
  limit_to_data_resources text[],
  allow_confidential boolean NOT NULL DEFAULT false,
  allow_sensitive boolean NOT NULL DEFAULT true,
  allow_unreleased boolean NOT NULL DEFAULT false,
  full_precision_sensitive_records boolean NOT NULL DEFAULT false,
  search_index text[] NOT NULL DEFAULT '{}',
  deleted boolean NOT NULL DEFAULT false,
  UNIQUE (client_id, proj_id)
);
