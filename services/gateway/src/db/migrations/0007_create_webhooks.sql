-- Webhook subscriptions: each follows the change feed of its owner (a website,
-- or a client connection) from its own cursor and POSTs every change it
-- passes to `url`. Both tables are a delivery queue, not authentication data:
-- unlike the rest of the schema they carry no notify_change trigger
-- (migration 0005), so deliveries do not empty the gateway's caches.
CREATE TABLE auth.webhook_subscriptions (
  id text PRIMARY KEY,
  website_id bigint NOT NULL REFERENCES auth.websites (id),
  -- A connection's subscription; both null for the website's own.
  client_id bigint,
  proj_id text,
  url text NOT NULL,
  event_types text[] NOT NULL,
  survey_id bigint,
  taxon_group text,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_until timestamptz,
  -- The feed cursor after the last change delivered (or passed over); null: from
  -- the moment a gateway first looks at it (a subscription the admin CLI added).
  cursor text,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled')),
  disabled_reason text,
  -- Failing without a success since then (reset by any delivery).
  failing_since timestamptz,
  last_error text,
  last_error_on timestamptz,
  -- The message at the head that keeps failing, its attempts and first failure.
  head_message_id text,
  attempts integer NOT NULL DEFAULT 0,
  head_failing_since timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Set when the feed moved on while the subscription was caught up or being served.
  wake_requested boolean NOT NULL DEFAULT false,
  lease_until timestamptz,
  leased_by text,
  delivered integer NOT NULL DEFAULT 0,
  last_delivered_on timestamptz,
  created_on timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (client_id, proj_id) REFERENCES auth.client_connections (client_id, proj_id),
  CHECK ((client_id IS NULL) = (proj_id IS NULL))
);

CREATE INDEX webhook_subscriptions_due ON auth.webhook_subscriptions (next_attempt_at) WHERE state = 'active';
CREATE INDEX webhook_subscriptions_owner ON auth.webhook_subscriptions (website_id, client_id, proj_id);

-- Messages that failed for the whole retry window. `replay_requested_on` puts
-- one back in its subscription's queue; `replayed_on` says it was delivered then.
CREATE TABLE auth.webhook_dead_letters (
  id bigserial PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES auth.webhook_subscriptions (id) ON DELETE CASCADE,
  message_id text NOT NULL,
  payload jsonb NOT NULL,
  last_error text NOT NULL,
  attempts integer NOT NULL,
  first_attempt_on timestamptz NOT NULL,
  last_attempt_on timestamptz NOT NULL,
  replay_requested_on timestamptz,
  replayed_on timestamptz
);

CREATE INDEX webhook_dead_letters_subscription ON auth.webhook_dead_letters (subscription_id, id);
