// Original file: media/v1/media_service.proto

import type { ReservedFile as _media_v1_ReservedFile, ReservedFile__Output as _media_v1_ReservedFile__Output } from '../../media/v1/ReservedFile.ts';

export interface ReserveResponse {
  'files'?: (_media_v1_ReservedFile)[];
  'refused'?: ({[key: string]: string});
}

export interface ReserveResponse__Output {
  'files': (_media_v1_ReservedFile__Output)[];
  'refused': ({[key: string]: string});
}
