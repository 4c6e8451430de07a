// Original file: media/v1/media_service.proto

export const DownloadOf = {
  DOWNLOAD_OF_UNSPECIFIED: 'DOWNLOAD_OF_UNSPECIFIED',
  DOWNLOAD_OF_QUEUED_UPLOAD: 'DOWNLOAD_OF_QUEUED_UPLOAD',
  DOWNLOAD_OF_READABLE_MEDIUM: 'DOWNLOAD_OF_READABLE_MEDIUM',
} as const;

export type DownloadOf =
  | 'DOWNLOAD_OF_UNSPECIFIED'
  | 0
  | 'DOWNLOAD_OF_QUEUED_UPLOAD'
  | 1
  | 'DOWNLOAD_OF_READABLE_MEDIUM'
  | 2

export type DownloadOf__Output = typeof DownloadOf[keyof typeof DownloadOf]
