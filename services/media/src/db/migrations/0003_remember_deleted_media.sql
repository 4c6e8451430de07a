-- Stored files whose media were deleted: no longer served, removed after a grace period.
ALTER TABLE media.files ADD COLUMN deleted_on timestamptz;
CREATE INDEX files_deleted ON media.files (deleted_on) WHERE deleted_on IS NOT NULL;
