import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { LOADER_OPTIONS, PROTO_FILES } from './options.ts';
import type { ProtoGrpcType as RecordsProto } from './generated/records_service.ts';
import type { ProtoGrpcType as SearchProto } from './generated/search_service.ts';
import type { ProtoGrpcType as ReportsProto } from './generated/reports_service.ts';
import type { ProtoGrpcType as MediaProto } from './generated/media_service.ts';

export { LOADER_OPTIONS, PROTO_FILES, PROTOS_DIR } from './options.ts';
export { RECORD_ID, isRecordId } from './ids.ts';
export { RowTextWriter, csvCell, csvLine } from './row-forms.ts';
export { fromJsonRows, fromJsonValues, toJsonRows, toJsonValues, type FieldValue, type FieldValues, type RowValues } from './json-values.ts';

const definition = protoLoader.loadSync(PROTO_FILES, { ...LOADER_OPTIONS, includeDirs: [...LOADER_OPTIONS.includeDirs] });
const loaded = grpc.loadPackageDefinition(definition) as unknown as RecordsProto & SearchProto & ReportsProto & MediaProto;

export const recordsV1 = loaded.records.v1;
export const searchV1 = loaded.search.v1;
export const reportsV1 = loaded.reports.v1;
export const mediaV1 = loaded.media.v1;

export type * from './generated/types.ts';
