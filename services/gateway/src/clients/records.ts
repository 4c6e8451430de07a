import { ServiceClient, type CallSecret } from '@rex/grpc';
import {
  recordsV1,
  type AuthContext,
  type AddSurveyAttributeResponse__Output,
  type CreateLocationResponse__Output,
  type CreateSurveyResponse__Output,
  type GetSurveyResponse__Output,
  type ListSurveysResponse__Output,
  type ListAttributesResponse__Output,
  type UpdateSurveyResponse__Output,
  type CreateSamplesResponse__Output,
  type CreateOccurrencesResponse__Output,
  type UpdateSurveyAttributeResponse__Output,
  type CreateOccurrenceResponse__Output,
  type GetLocationResponse__Output,
  type ListLocationsResponse__Output,
  type UpdateLocationResponse__Output,
  type CreateSampleResponse__Output,
  type GetOccurrenceResponse__Output,
  type ListOccurrencesResponse__Output,
  type UpdateOccurrenceResponse__Output,
  type GetSampleResponse__Output,
  type ListSamplesResponse__Output,
  type RecordsServiceClient,
  type Submission,
  type UpdateSampleResponse__Output,
  type CreateMediumResponse__Output,
  type GetMediumResponse__Output,
  type ListMediaResponse__Output,
  type MediaParent,
  type UpdateMediumResponse__Output,
} from '@rex/protos';

/** The gateway's one typed client of the records service; every call carries a deadline. */
export function createRecordsClient(address: string, secret: CallSecret, deadlines: { readMs: number; writeMs: number }) {
  const client = new ServiceClient(recordsV1.RecordsService, address, secret);
  // Writes may take longer than reads; records cancels a write whose deadline passes, so it is never committed after a 504.
  const call = <R>(method: string, request: object) =>
    client.unary<R>(method, request, /^(Get|List)/.test(method) ? deadlines.readMs : deadlines.writeMs);
  return {
    createSample: (auth: AuthContext, submission: Submission, idempotencyKey = '') =>
      call<CreateSampleResponse__Output>('CreateSample', { auth, submission, idempotencyKey }),
    getSample: (auth: AuthContext, id: string, verbose = false) => call<GetSampleResponse__Output>('GetSample', { auth, id, verbose }),
    listSamples: (auth: AuthContext, filters: Record<string, string>, limit: number, offset: number) =>
      call<ListSamplesResponse__Output>('ListSamples', { auth, filters, limit, offset }),
    updateSample: (auth: AuthContext, id: string, submission: Submission, ifMatch: string[] = []) =>
      call<UpdateSampleResponse__Output>('UpdateSample', { auth, id, submission, ifMatch }),
    deleteSample: (auth: AuthContext, id: string, ifMatch: string[] = []) => call<object>('DeleteSample', { auth, id, ifMatch }),
    createOccurrence: (auth: AuthContext, submission: Submission, idempotencyKey = '') =>
      call<CreateOccurrenceResponse__Output>('CreateOccurrence', { auth, submission, idempotencyKey }),
    getOccurrence: (auth: AuthContext, id: string, verbose = false) => call<GetOccurrenceResponse__Output>('GetOccurrence', { auth, id, verbose }),
    listOccurrences: (auth: AuthContext, filters: Record<string, string>, limit: number, offset: number) =>
      call<ListOccurrencesResponse__Output>('ListOccurrences', { auth, filters, limit, offset }),
    updateOccurrence: (auth: AuthContext, id: string, submission: Submission, ifMatch: string[] = []) =>
      call<UpdateOccurrenceResponse__Output>('UpdateOccurrence', { auth, id, submission, ifMatch }),
    deleteOccurrence: (auth: AuthContext, id: string, ifMatch: string[] = []) => call<object>('DeleteOccurrence', { auth, id, ifMatch }),
    createLocation: (auth: AuthContext, submission: Submission, idempotencyKey = '') =>
      call<CreateLocationResponse__Output>('CreateLocation', { auth, submission, idempotencyKey }),
    getLocation: (auth: AuthContext, id: string, verbose = false) => call<GetLocationResponse__Output>('GetLocation', { auth, id, verbose }),
    listLocations: (auth: AuthContext, filters: Record<string, string>, limit: number, offset: number) =>
      call<ListLocationsResponse__Output>('ListLocations', { auth, filters, limit, offset }),
    updateLocation: (auth: AuthContext, id: string, submission: Submission, ifMatch: string[] = []) =>
      call<UpdateLocationResponse__Output>('UpdateLocation', { auth, id, submission, ifMatch }),
    deleteLocation: (auth: AuthContext, id: string, ifMatch: string[] = []) => call<object>('DeleteLocation', { auth, id, ifMatch }),
    listSurveys: (auth: AuthContext) => call<ListSurveysResponse__Output>('ListSurveys', { auth }),
    listAttributes: (auth: AuthContext, entity: string, id: string, filters: Record<string, string>) =>
      call<ListAttributesResponse__Output>('ListAttributes', { auth, entity, id, filters }),
    getSurvey: (auth: AuthContext, id: string) => call<GetSurveyResponse__Output>('GetSurvey', { auth, id }),
    createSurvey: (auth: AuthContext, submission: Submission) => call<CreateSurveyResponse__Output>('CreateSurvey', { auth, submission }),
    updateSurvey: (auth: AuthContext, id: string, submission: Submission) => call<UpdateSurveyResponse__Output>('UpdateSurvey', { auth, id, submission }),
    addSurveyAttribute: (auth: AuthContext, surveyId: string, submission: Submission) =>
      call<AddSurveyAttributeResponse__Output>('AddSurveyAttribute', { auth, surveyId, submission }),
    createMedium: (auth: AuthContext, parent: MediaParent, submission: Submission, idempotencyKey = '') =>
      call<CreateMediumResponse__Output>('CreateMedium', { auth, parent, submission, idempotencyKey }),
    getMedium: (auth: AuthContext, parent: MediaParent, id: string) => call<GetMediumResponse__Output>('GetMedium', { auth, parent, id }),
    listMedia: (auth: AuthContext, parent: MediaParent, filters: Record<string, string>, limit: number, offset: number) =>
      call<ListMediaResponse__Output>('ListMedia', { auth, parent, filters, limit, offset }),
    updateMedium: (auth: AuthContext, parent: MediaParent, id: string, submission: Submission, ifMatch: string[] = []) =>
      call<UpdateMediumResponse__Output>('UpdateMedium', { auth, parent, id, submission, ifMatch }),
    deleteMedium: (auth: AuthContext, parent: MediaParent, id: string, ifMatch: string[] = []) => call<object>('DeleteMedium', { auth, parent, id, ifMatch }),
    updateSurveyAttribute: (auth: AuthContext, surveyId: string, attributeId: string, submission: Submission) =>
      call<UpdateSurveyAttributeResponse__Output>('UpdateSurveyAttribute', { auth, surveyId, attributeId, submission }),
    removeSurveyAttribute: (auth: AuthContext, surveyId: string, attributeId: string) => call<object>('RemoveSurveyAttribute', { auth, surveyId, attributeId }),
    createSamples: (auth: AuthContext, submissions: Submission[], idempotencyKey = '') =>
      call<CreateSamplesResponse__Output>('CreateSamples', { auth, submissions, idempotencyKey }),
    createOccurrences: (auth: AuthContext, submissions: Submission[], idempotencyKey = '') =>
      call<CreateOccurrencesResponse__Output>('CreateOccurrences', { auth, submissions, idempotencyKey }),
    close: () => client.close(),
  };
}

export type RecordsClient = ReturnType<typeof createRecordsClient>;
