// Original file: records/v1/records_service.proto


export interface DeleteOccurrenceResponse {
}

export interface DeleteOccurrenceResponse__Output {
}
