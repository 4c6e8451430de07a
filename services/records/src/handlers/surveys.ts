import { invalid, type Handlers } from '@rex/grpc';
import { isRecordId } from '@rex/protos';
import type { RecordsServiceHandlers } from '@rex/protos';
import type { AttributeCatalogue } from '../app/attribute-catalogue.ts';
import type { Surveys } from '../app/surveys.ts';

function recordId(id: string): string {
  if (!isRecordId(id)) throw invalid({ 'survey:id': 'Must be a positive whole number.' });
  return id;
}

type SurveyHandlers = Pick<
  Handlers<RecordsServiceHandlers>,
  'ListSurveys' | 'GetSurvey' | 'CreateSurvey' | 'UpdateSurvey' | 'AddSurveyAttribute' | 'UpdateSurveyAttribute' | 'RemoveSurveyAttribute' | 'ListAttributes'
>;

export function surveyHandlers(surveys: Surveys, attributes: AttributeCatalogue): SurveyHandlers {
  return {
    ListAttributes: async (request) => ({
      attributes: await attributes.list(request.auth, request.entity, request.id, request.filters),
    }),
    ListSurveys: async (request) => ({
      surveys: await surveys.list(request.auth),
    }),
    GetSurvey: async (request) => surveys.get(request.auth, recordId(request.id)),
    CreateSurvey: async (request) => ({
      saved: await surveys.create(request.auth, request.submission),
    }),
    UpdateSurvey: async (request) => ({
      saved: await surveys.update(request.auth, recordId(request.id), request.submission),
    }),
    AddSurveyAttribute: async (request) => ({
      saved: await surveys.addAttribute(request.auth, recordId(request.surveyId), request.submission),
    }),
    UpdateSurveyAttribute: async (request) => ({
      saved: await surveys.updateAttribute(request.auth, recordId(request.surveyId), recordId(request.attributeId), request.submission),
    }),
    RemoveSurveyAttribute: async (request) => {
      await surveys.removeAttribute(request.auth, recordId(request.surveyId), recordId(request.attributeId));
      return {};
    },
  };
}
