// Original file: records/v1/records_service.proto


export interface DeleteMediumResponse {
}

export interface DeleteMediumResponse__Output {
}
