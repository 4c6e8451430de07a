import { withTransaction, type Pool } from '@rex/db';
import { forbidden, invalid, notFound } from '@rex/grpc';
import { type AuthContext__Output, type SavedRecord, type Submission__Output, toJsonValues } from '@rex/protos';
import type { Errors } from '../domain/fields.ts';
import { parseBoolean, text, type Value, type Values } from '../domain/values.ts';
import type { ReferenceData } from '../db/reference-repo.ts';
import { iso } from '../db/sql.ts';
import { stamp } from './answers.ts';
import { toTree } from './submissions.ts';

const ENTITIES = ['sample', 'occurrence'];
const DATA_TYPES = ['T', 'I', 'F', 'D', 'V', 'B', 'L'];
const SURVEY_COLUMNS = `s.id, s.title, s.description, s.website_id, ${iso('s.created_on')} AS created_on, ${iso('s.updated_on')} AS updated_on`;

const strings = (row: Record<string, unknown>): Record<string, Value> =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null || value === undefined ? null : Array.isArray(value) ? value.map(String) : String(value)]));

/** Survey structure is changed by the website's administrators and editors only. */
function requireEditor(auth: AuthContext__Output | null): { websiteId: string } {
  const isEditor = auth?.entity === 'ENTITY_USER' && (auth.siteRole === 1 || auth.siteRole === 2);
  if (!isEditor) throw forbidden('Only administrators and editors of the website may create or change surveys.');
  return { websiteId: auth!.websiteId };
}

function surveyValues(values: Values, isNew: boolean, errors: Errors): Record<string, string | null> {
  const columns: Record<string, string | null> = {};
  if ('title' in values || isNew) {
    const title = text(values, 'title');
    if (!title) errors['survey:title'] = 'The title is required.';
    else columns.title = title;
  }
  if ('description' in values) columns.description = text(values, 'description') ?? null;
  return columns;
}

/** Surveys of the caller's website and the custom attributes attached to them. */
export function createSurveys(db: Pool, reference: ReferenceData) {
  async function surveyOfWebsite(id: string, websiteId: string) {
    const { rows } = await db.query(`SELECT ${SURVEY_COLUMNS} FROM records.surveys s WHERE s.id = $1 AND s.website_id = $2 AND NOT s.deleted`, [id, websiteId]);
    if (!rows[0]) throw notFound();
    return rows[0];
  }

  return {
    async list(auth: AuthContext__Output | null) {
      const { rows } = await db.query(`SELECT ${SURVEY_COLUMNS} FROM records.surveys s WHERE s.website_id = $1 AND NOT s.deleted ORDER BY s.id`, [auth?.websiteId ?? '0']);
      return rows.map((row) => ({ values: toJsonValues(strings(row)) }));
    },

    async get(auth: AuthContext__Output | null, id: string) {
      const survey = await surveyOfWebsite(id, auth?.websiteId ?? '0');
      const { rows } = await db.query(
        `SELECT a.id, a.entity, a.caption, a.data_type, a.multi_value, sa.required,
                COALESCE((SELECT array_agg(t.id || ':' || t.term ORDER BY t.id) FROM records.attribute_terms t WHERE t.attribute_id = a.id), '{}') AS terms
           FROM records.survey_attributes sa JOIN records.attributes a ON a.id = sa.attribute_id
          WHERE sa.survey_id = $1 AND NOT a.deleted ORDER BY a.id`,
        [id],
      );
      return {
        values: toJsonValues(strings(survey)),
        attributes: rows.map((row) => ({ values: toJsonValues(strings({ ...row, multi_value: row.multi_value ? 't' : 'f', required: row.required ? 't' : 'f' })) })),
      };
    },

    async create(auth: AuthContext__Output | null, submission: Submission__Output | null): Promise<SavedRecord> {
      const { websiteId } = requireEditor(auth);
      const errors: Errors = {};
      const columns = surveyValues(toTree(submission).values, true, errors);
      if (Object.keys(errors).length) throw invalid(errors);
      const { rows } = await db.query(
        `INSERT INTO records.surveys (website_id, title, description) VALUES ($1, $2, $3)
         RETURNING id, ${iso('created_on')} AS created_on, ${iso('updated_on')} AS updated_on, xmin::text AS version`,
        [websiteId, columns.title, columns.description ?? null],
      );
      return { entity: 'survey', values: stamp(rows[0].id, rows[0].created_on, rows[0].updated_on), version: rows[0].version };
    },

    async update(auth: AuthContext__Output | null, id: string, submission: Submission__Output | null): Promise<SavedRecord> {
      const { websiteId } = requireEditor(auth);
      await surveyOfWebsite(id, websiteId);
      const errors: Errors = {};
      const columns = surveyValues(toTree(submission).values, false, errors);
      if (Object.keys(errors).length) throw invalid(errors);
      const names = Object.keys(columns);
      const { rows } = await db.query(
        `UPDATE records.surveys SET ${[...names.map((name, i) => `${name} = $${i + 2}`), 'updated_on = now()'].join(', ')} WHERE id = $1
         RETURNING id, ${iso('created_on')} AS created_on, ${iso('updated_on')} AS updated_on, xmin::text AS version`,
        [id, ...names.map((name) => columns[name])],
      );
      reference.forgetSurvey(websiteId, id);
      return { entity: 'survey', values: stamp(rows[0].id, rows[0].created_on, rows[0].updated_on), version: rows[0].version };
    },

    /** A new custom attribute attached to the survey: entity, caption, data_type, and for lookups its terms. */
    async addAttribute(auth: AuthContext__Output | null, surveyId: string, submission: Submission__Output | null): Promise<SavedRecord> {
      const { websiteId } = requireEditor(auth);
      await surveyOfWebsite(surveyId, websiteId);
      const values = toTree(submission).values;
      const errors: Errors = {};
      const entity = text(values, 'entity');
      const caption = text(values, 'caption');
      const dataType = text(values, 'data_type')?.toUpperCase();
      if (!entity || !ENTITIES.includes(entity)) errors['attribute:entity'] = `Must be one of ${ENTITIES.join(', ')}.`;
      if (!caption) errors['attribute:caption'] = 'The caption is required.';
      if (!dataType || !DATA_TYPES.includes(dataType)) errors['attribute:data_type'] = `Must be one of ${DATA_TYPES.join(', ')}.`;
      const flag = (name: string) => {
        const raw = text(values, name);
        const parsed = raw === undefined ? false : parseBoolean(raw);
        if (parsed === undefined) errors[`attribute:${name}`] = 'Must be true or false.';
        return parsed ?? false;
      };
      const multiValue = flag('multi_value');
      const required = flag('required');
      const terms = values.terms === undefined || values.terms === null ? [] : Array.isArray(values.terms) ? values.terms : [values.terms];
      if (dataType === 'L' && !terms.length) errors['attribute:terms'] = 'A lookup attribute needs its list of terms.';
      if (Object.keys(errors).length) throw invalid(errors);
      const saved = await withTransaction(db, async (client) => {
        const { rows } = await client.query(
          `INSERT INTO records.attributes (entity, caption, data_type, multi_value) VALUES ($1, $2, $3, $4) RETURNING id, xmin::text AS version, ${iso('now()')} AS stamp`,
          [entity, caption, dataType, multiValue],
        );
        for (const term of terms) await client.query('INSERT INTO records.attribute_terms (attribute_id, term) VALUES ($1, $2)', [rows[0].id, term]);
        await client.query('INSERT INTO records.survey_attributes (survey_id, attribute_id, required) VALUES ($1, $2, $3)', [surveyId, rows[0].id, required]);
        return rows[0];
      });
      reference.forgetSurvey(websiteId, surveyId);
      return { entity: 'attribute', values: stamp(saved.id, saved.stamp), version: saved.version };
    },

    /**
     * Changes an attribute attached to the survey: its caption, whether the
     * survey requires it, and more terms for a lookup. Its entity, data type
     * and multi-value flag stay, as stored values depend on them.
     */
    async updateAttribute(auth: AuthContext__Output | null, surveyId: string, attributeId: string, submission: Submission__Output | null): Promise<SavedRecord> {
      const { websiteId } = requireEditor(auth);
      await surveyOfWebsite(surveyId, websiteId);
      const attribute = await attachedAttribute(surveyId, attributeId);
      const values = toTree(submission).values;
      const errors: Errors = {};
      for (const fixed of ['entity', 'data_type', 'multi_value']) {
        if (fixed in values && text(values, fixed)?.toLowerCase() !== String(attribute[fixed]).toLowerCase()) {
          errors[`attribute:${fixed}`] = `The ${fixed} of an attribute cannot change once it may hold values; add a new attribute instead.`;
        }
      }
      const caption = 'caption' in values ? text(values, 'caption') : attribute.caption;
      if (!caption) errors['attribute:caption'] = 'The caption is required.';
      const requiredText = text(values, 'required');
      const required = requiredText === undefined ? undefined : parseBoolean(requiredText);
      if (requiredText !== undefined && required === undefined) errors['attribute:required'] = 'Must be true or false.';
      const terms = values.terms === undefined || values.terms === null ? [] : Array.isArray(values.terms) ? values.terms : [values.terms];
      if (terms.length && attribute.data_type !== 'L') errors['attribute:terms'] = 'Only lookup attributes have terms.';
      if (Object.keys(errors).length) throw invalid(errors);
      const saved = await withTransaction(db, async (client) => {
        const { rows } = await client.query(
          `UPDATE records.attributes SET caption = $2 WHERE id = $1 RETURNING id, xmin::text AS version, ${iso('now()')} AS stamp`,
          [attributeId, caption],
        );
        if (required !== undefined) await client.query('UPDATE records.survey_attributes SET required = $3 WHERE survey_id = $1 AND attribute_id = $2', [surveyId, attributeId, required]);
        for (const term of terms) {
          await client.query(
            'INSERT INTO records.attribute_terms (attribute_id, term) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM records.attribute_terms WHERE attribute_id = $1 AND term = $2)',
            [attributeId, term],
          );
        }
        return rows[0];
      });
      reference.forgetSurvey(websiteId, surveyId);
      return { entity: 'attribute', values: stamp(saved.id, saved.stamp), version: saved.version };
    },

    /** Detaches an attribute from the survey; values already stored stay with their records. */
    async removeAttribute(auth: AuthContext__Output | null, surveyId: string, attributeId: string): Promise<void> {
      const { websiteId } = requireEditor(auth);
      await surveyOfWebsite(surveyId, websiteId);
      await attachedAttribute(surveyId, attributeId);
      await db.query('DELETE FROM records.survey_attributes WHERE survey_id = $1 AND attribute_id = $2', [surveyId, attributeId]);
      reference.forgetSurvey(websiteId, surveyId);
    },
  };

  async function attachedAttribute(surveyId: string, attributeId: string) {
    const { rows } = await db.query(
      `SELECT a.id, a.entity, a.caption, a.data_type, CASE WHEN a.multi_value THEN 'true' ELSE 'false' END AS multi_value
         FROM records.survey_attributes sa JOIN records.attributes a ON a.id = sa.attribute_id
        WHERE sa.survey_id = $1 AND sa.attribute_id = $2 AND NOT a.deleted`,
      [surveyId, attributeId],
    );
    if (!rows[0]) throw notFound();
    return rows[0] as Record<string, string>;
  }
}

export type Surveys = ReturnType<typeof createSurveys>;
