import { invalid, unary } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type {
  AddSurveyAttributeRequest__Output,
  AddSurveyAttributeResponse,
  UpdateSurveyAttributeRequest__Output,
  UpdateSurveyAttributeResponse,
  RemoveSurveyAttributeRequest__Output,
  RemoveSurveyAttributeResponse,
  CreateSurveyRequest__Output,
  CreateSurveyResponse,
  GetSurveyRequest__Output,
  GetSurveyResponse,
  ListSurveysRequest__Output,
  ListSurveysResponse,
  RecordsServiceHandlers,
  UpdateSurveyRequest__Output,
  UpdateSurveyResponse,
  ListAttributesRequest__Output,
  ListAttributesResponse,
} from '@rex/protos';
import type { AttributeCatalogue } from '../attribute-catalogue.ts';
import type { Surveys } from '../surveys.ts';

const SERVICE = 'records.v1.RecordsService';

function recordId(id: string): string {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw invalid({ 'survey:id': 'Must be a positive whole number.' });
  return id;
}

type SurveyHandlers = Pick<
  RecordsServiceHandlers,
  'ListSurveys' | 'GetSurvey' | 'CreateSurvey' | 'UpdateSurvey' | 'AddSurveyAttribute' | 'UpdateSurveyAttribute' | 'RemoveSurveyAttribute' | 'ListAttributes'
>;

export function surveyHandlers(surveys: Surveys, attributes: AttributeCatalogue, logger: Logger): SurveyHandlers {
  return {
    ListAttributes: unary<ListAttributesRequest__Output, ListAttributesResponse>(SERVICE, 'ListAttributes', logger, async (request) => ({
      attributes: await attributes.list(request.auth, request.entity, request.id, request.filters),
    })),
    ListSurveys: unary<ListSurveysRequest__Output, ListSurveysResponse>(SERVICE, 'ListSurveys', logger, async (request) => ({
      surveys: await surveys.list(request.auth),
    })),
    GetSurvey: unary<GetSurveyRequest__Output, GetSurveyResponse>(SERVICE, 'GetSurvey', logger, async (request) => surveys.get(request.auth, recordId(request.id))),
    CreateSurvey: unary<CreateSurveyRequest__Output, CreateSurveyResponse>(SERVICE, 'CreateSurvey', logger, async (request) => ({
      saved: await surveys.create(request.auth, request.submission),
    })),
    UpdateSurvey: unary<UpdateSurveyRequest__Output, UpdateSurveyResponse>(SERVICE, 'UpdateSurvey', logger, async (request) => ({
      saved: await surveys.update(request.auth, recordId(request.id), request.submission),
    })),
    AddSurveyAttribute: unary<AddSurveyAttributeRequest__Output, AddSurveyAttributeResponse>(SERVICE, 'AddSurveyAttribute', logger, async (request) => ({
      saved: await surveys.addAttribute(request.auth, recordId(request.surveyId), request.submission),
    })),
    UpdateSurveyAttribute: unary<UpdateSurveyAttributeRequest__Output, UpdateSurveyAttributeResponse>(SERVICE, 'UpdateSurveyAttribute', logger, async (request) => ({
      saved: await surveys.updateAttribute(request.auth, recordId(request.surveyId), recordId(request.attributeId), request.submission),
    })),
    RemoveSurveyAttribute: unary<RemoveSurveyAttributeRequest__Output, RemoveSurveyAttributeResponse>(SERVICE, 'RemoveSurveyAttribute', logger, async (request) => {
      await surveys.removeAttribute(request.auth, recordId(request.surveyId), recordId(request.attributeId));
      return {};
    }),
  };
}
