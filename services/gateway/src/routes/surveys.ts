import type { Request } from 'express';
import { toAuthContext } from '../auth/caller.ts';
import type { RecordsClient } from '../clients/records.ts';
import { envelope, toSubmission } from '../envelope.ts';
import { HttpError } from '../http-error.ts';
import { backend, servicesUrl } from './context.ts';
import type { Parameter, Route } from './route.ts';
import { fromJsonValues, isRecordId } from '@rex/protos';

const ID: Parameter = { name: 'id', in: 'path', type: 'integer', description: 'Survey id', required: true };

function surveyId(req: Request, name = 'id'): string {
  const id = String(req.params[name]);
  if (!isRecordId(id)) throw new HttpError(404);
  return id;
}

const ATTRIBUTE_ID: Parameter = { name: 'attributeId', in: 'path', type: 'integer', description: 'Attribute id', required: true };

/** `sample_attributes` is the same resource as `sample-attributes` (and so for occurrences and locations). */
export const ATTRIBUTES_ALIAS = /\/(sample|occurrence|location)_attributes(?=\/|\?|$)/;

const ATTRIBUTE_FIELDS = 'id, caption, data_type (T text, I integer, F float, D date, V vague date, B boolean, L lookup), multi_value, terms (lookups: "<id>:<term>")';

const ATTRIBUTE_KINDS = [
  {
    entity: 'sample',
    filter: { name: 'restrict_to_survey_id', in: 'query', type: 'integer', description: 'Only attributes of this survey, with its required flag' },
    fields: `${ATTRIBUTE_FIELDS}, restrict_to_survey_ids (the surveys it is attached to), required_in_survey_ids; with restrict_to_survey_id also required`,
  },
  {
    entity: 'occurrence',
    filter: { name: 'restrict_to_survey_id', in: 'query', type: 'integer', description: 'Only attributes of this survey, with its required flag' },
    fields: `${ATTRIBUTE_FIELDS}, restrict_to_survey_ids (the surveys it is attached to), required_in_survey_ids; with restrict_to_survey_id also required`,
  },
  {
    entity: 'location',
    filter: { name: 'location_type_id', in: 'query', type: 'integer', description: 'Only attributes for locations of this type (and those for any type)' },
    fields: `${ATTRIBUTE_FIELDS}, required, location_type_id (null: locations of any type)`,
  },
] as const satisfies { entity: string; filter: Parameter; fields: string }[];

/** The custom attributes the caller's website may use, of each kind: any caller of the website reads them. */
function attributeRoutes(records: RecordsClient): Route[] {
  return ATTRIBUTE_KINDS.flatMap(({ entity, filter, fields }): Route[] => {
    const resource = `${entity}-attributes`;
    const filters = (req: Request) => (typeof req.query[filter.name] === 'string' ? { [filter.name]: req.query[filter.name] as string } : {});
    return [
      {
        resource,
        method: 'get',
        path: `/${resource}`,
        summary: `The ${entity} attributes the caller's website may use (also spelt ${entity}_attributes).`,
        parameters: [filter],
        responses: { 200: `A JSON array of {"values": {${fields}}}`, 400: `${filter.name} is not a whole number` },
        handler: async (req, res) => {
          const { attributes } = await backend('records', records.listAttributes(toAuthContext(req.caller!), entity, '0', filters(req)));
          res.json(attributes.map((attribute) => ({ values: fromJsonValues(attribute.values) })));
        },
      },
      {
        resource,
        method: 'get',
        path: `/${resource}/:id`,
        summary: `One ${entity} attribute the caller's website may use.`,
        parameters: [{ ...ATTRIBUTE_ID, name: 'id' }],
        responses: { 200: `{"values": {${fields}}}`, 404: 'No such attribute for the website' },
        handler: async (req, res) => {
          const { attributes } = await backend('records', records.listAttributes(toAuthContext(req.caller!), entity, surveyId(req), {}));
          if (!attributes.length) throw new HttpError(404);
          res.json({ values: fromJsonValues(attributes[0].values) });
        },
      },
    ];
  });
}

/** Survey structure: the website's surveys and their custom attributes; administrators and editors change them. */
export function surveyRoutes(records: RecordsClient): Route[] {
  const editors = 'Administrators and editors of the website only (403 otherwise).';
  return [
    ...attributeRoutes(records),
    {
      resource: 'surveys',
      method: 'get',
      path: '/surveys',
      summary: "The surveys of the caller's website.",
      responses: { 200: 'A JSON array of {"values": {id, title, description, website_id, created_on, updated_on}}' },
      handler: async (req, res) => {
        const { surveys } = await backend('records', records.listSurveys(toAuthContext(req.caller!)));
        res.json(surveys.map((survey) => ({ values: fromJsonValues(survey.values) })));
      },
    },
    {
      resource: 'surveys',
      method: 'get',
      path: '/surveys/:id',
      summary: 'One survey of the website, with the sample and occurrence attributes attached to it.',
      parameters: [ID],
      responses: { 200: '{values, attributes: [{values: {id, entity, caption, data_type, multi_value, required, terms}}]}', 404: 'No such survey in the website' },
      handler: async (req, res) => {
        const survey = await backend('records', records.getSurvey(toAuthContext(req.caller!), surveyId(req)));
        res.json({ values: fromJsonValues(survey.values), attributes: survey.attributes.map((a) => ({ values: fromJsonValues(a.values) })) });
      },
    },
    {
      resource: 'surveys',
      method: 'post',
      path: '/surveys',
      summary: `Create a survey (values: title, description). ${editors}`,
      submission: true,
      responses: { 201: 'Created; Location names it', 400: 'survey:title missing', 403: 'Not an administrator or editor of the website' },
      handler: async (req, res) => {
        const { saved } = await backend('records', records.createSurvey(toAuthContext(req.caller!), toSubmission('survey', req.body)));
        const body = envelope(saved!, servicesUrl(req));
        res.status(201).location(body.href as string).json(body);
      },
    },
    {
      resource: 'surveys',
      method: 'put',
      path: '/surveys/:id',
      summary: `Change a survey's title or description. ${editors}`,
      parameters: [ID],
      submission: true,
      responses: { 200: 'Updated', 403: 'Not an administrator or editor of the website', 404: 'No such survey in the website' },
      handler: async (req, res) => {
        const { saved } = await backend('records', records.updateSurvey(toAuthContext(req.caller!), surveyId(req), toSubmission('survey', req.body)));
        res.json(envelope(saved!, servicesUrl(req)));
      },
    },
    {
      resource: 'surveys',
      method: 'post',
      path: '/surveys/:id/attributes',
      summary: `Add a custom attribute to a survey (values: entity sample|occurrence, caption, data_type T|I|F|D|V|B|L, multi_value, required, terms for L). ${editors}`,
      parameters: [ID],
      submission: true,
      responses: { 201: 'Created: the attribute id; submit values as smpAttr:<id> or occAttr:<id>', 400: 'A bad attribute definition', 403: 'Not an administrator or editor of the website' },
      handler: async (req, res) => {
        const id = surveyId(req);
        const { saved } = await backend('records', records.addSurveyAttribute(toAuthContext(req.caller!), id, toSubmission('attribute', req.body)));
        const href = `${servicesUrl(req)}/rest/surveys/${id}`;
        res.status(201).location(href).json({ values: fromJsonValues(saved!.values), href });
      },
    },
    {
      resource: 'surveys',
      method: 'put',
      path: '/surveys/:id/attributes/:attributeId',
      summary: `Change an attribute of a survey: caption, required, more terms for a lookup (entity, data_type and multi_value stay). ${editors}`,
      parameters: [ID, ATTRIBUTE_ID],
      submission: true,
      responses: { 200: 'Updated', 400: 'A bad change', 403: 'Not an administrator or editor of the website', 404: 'No such attribute on the survey' },
      handler: async (req, res) => {
        const id = surveyId(req);
        const { saved } = await backend(
          'records',
          records.updateSurveyAttribute(toAuthContext(req.caller!), id, surveyId(req, 'attributeId'), toSubmission('attribute', req.body)),
        );
        res.json({ values: fromJsonValues(saved!.values), href: `${servicesUrl(req)}/rest/surveys/${id}` });
      },
    },
    {
      resource: 'surveys',
      method: 'delete',
      path: '/surveys/:id/attributes/:attributeId',
      summary: `Detach an attribute from a survey; values already stored stay with their records. ${editors}`,
      parameters: [ID, ATTRIBUTE_ID],
      responses: { 204: 'Detached', 403: 'Not an administrator or editor of the website', 404: 'No such attribute on the survey' },
      handler: async (req, res) => {
        await backend('records', records.removeSurveyAttribute(toAuthContext(req.caller!), surveyId(req), surveyId(req, 'attributeId')));
        res.status(204).end();
      },
    },
  ];
}
