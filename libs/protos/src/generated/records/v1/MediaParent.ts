// Original file: records/v1/records_service.proto

export const MediaParent = {
  MEDIA_PARENT_UNSPECIFIED: 'MEDIA_PARENT_UNSPECIFIED',
  MEDIA_PARENT_SAMPLE: 'MEDIA_PARENT_SAMPLE',
  MEDIA_PARENT_OCCURRENCE: 'MEDIA_PARENT_OCCURRENCE',
  MEDIA_PARENT_LOCATION: 'MEDIA_PARENT_LOCATION',
} as const;

export type MediaParent =
  | 'MEDIA_PARENT_UNSPECIFIED'
  | 0
  | 'MEDIA_PARENT_SAMPLE'
  | 1
  | 'MEDIA_PARENT_OCCURRENCE'
  | 2
  | 'MEDIA_PARENT_LOCATION'
  | 3

export type MediaParent__Output = typeof MediaParent[keyof typeof MediaParent]
