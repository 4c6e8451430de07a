// Original file: records/v1/records_service.proto


export interface DeleteLocationResponse {
}

export interface DeleteLocationResponse__Output {
}
