// Original file: records/v1/records_service.proto


export interface RemoveSurveyAttributeResponse {
}

export interface RemoveSurveyAttributeResponse__Output {
}
