// Original file: records/v1/records_service.proto


export interface DeleteSampleResponse {
}

export interface DeleteSampleResponse__Output {
}
