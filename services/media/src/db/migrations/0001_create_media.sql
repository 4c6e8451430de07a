-- Uploaded files: queued until a record claims them, then stored.
CREATE TABLE media.files (
  name text PRIMARY KEY,
  website_id bigint NOT NULL,
  -- The uploading user, when a user uploaded it; only they may claim it.
  user_id bigint,
  field text NOT NULL,
  original_name text,
  content_type text NOT NULL,
  media_type text NOT NULL,
  size bigint NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed')),
  uploaded_on timestamptz NOT NULL DEFAULT now(),
  expires_on timestamptz NOT NULL,
  -- The submission holding the file, until reserved_until.
  claim_id uuid,
  reserved_until timestamptz,
  claimed_on timestamptz
);
CREATE INDEX files_expiry ON media.files (expires_on) WHERE state = 'queued';
CREATE INDEX files_claim_id ON media.files (claim_id) WHERE claim_id IS NOT NULL;
