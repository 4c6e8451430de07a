-- What a website's user tokens must carry beyond a valid signature.
ALTER TABLE auth.websites
  ADD COLUMN jwt_require_exp boolean NOT NULL DEFAULT false,
  ADD COLUMN jwt_max_age_s integer CHECK (jwt_max_age_s > 0),
  ADD COLUMN jwt_audience text;
