-- Upload quotas sum what one uploader sent in the last hour.
CREATE INDEX files_uploader ON media.files (website_id, user_id, uploaded_on);
