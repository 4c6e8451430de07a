// Original file: media/v1/media_service.proto

export const FileVariant = {
  FILE_VARIANT_ORIGINAL: 'FILE_VARIANT_ORIGINAL',
  FILE_VARIANT_THUMB: 'FILE_VARIANT_THUMB',
  FILE_VARIANT_MED: 'FILE_VARIANT_MED',
} as const;

export type FileVariant =
  | 'FILE_VARIANT_ORIGINAL'
  | 0
  | 'FILE_VARIANT_THUMB'
  | 1
  | 'FILE_VARIANT_MED'
  | 2

export type FileVariant__Output = typeof FileVariant[keyof typeof FileVariant]
