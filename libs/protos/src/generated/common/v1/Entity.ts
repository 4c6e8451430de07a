// Original file: common/v1/auth_context.proto

export const Entity = {
  ENTITY_UNSPECIFIED: 'ENTITY_UNSPECIFIED',
  ENTITY_USER: 'ENTITY_USER',
  ENTITY_WEBSITE: 'ENTITY_WEBSITE',
  ENTITY_CLIENT: 'ENTITY_CLIENT',
} as const;

export type Entity =
  | 'ENTITY_UNSPECIFIED'
  | 0
  | 'ENTITY_USER'
  | 1
  | 'ENTITY_WEBSITE'
  | 2
  | 'ENTITY_CLIENT'
  | 3

export type Entity__Output = typeof Entity[keyof typeof Entity]
