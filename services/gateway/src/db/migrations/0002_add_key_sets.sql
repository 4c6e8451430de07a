-- Key rotation: a website or client may publish its keys at a JWKS URL, and
-- public_key may hold several PEM keys (old and new) during a rotation.
ALTER TABLE auth.websites ADD COLUMN jwks_url text;
ALTER TABLE auth.clients ADD COLUMN jwks_url text;
