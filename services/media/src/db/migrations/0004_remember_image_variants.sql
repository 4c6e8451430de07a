-- Whether the smaller images of a stored file were made: NULL until it is
-- tried (an image claimed before variants existed is made later), 'made', or
-- 'none' (not an image, or one that could not be read).
ALTER TABLE media.files ADD COLUMN variants text CHECK (variants IN ('made', 'none'));
CREATE INDEX files_variants_due ON media.files (claimed_on) WHERE state = 'claimed' AND variants IS NULL AND deleted_on IS NULL;
