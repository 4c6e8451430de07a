import { addErrors, readPlainFields, type Column, type Errors, type FieldKind } from './fields.ts';
import { SrefError, normaliseSref, srefToGeometry } from '@rex/spatial-ref';
import { text, type Values } from './values.ts';

const LOCATION_FIELDS: Record<string, FieldKind> = {
  name: 'text',
  code: 'text',
  location_type_id: 'integer',
  parent_id: 'integer',
  comment: 'text',
  external_key: 'text',
};

/**
 * Checks a location's values. New locations need a name and a centroid
 * spatial reference; updates change only what was sent. Submitted locations
 * are never public (only administrators make them so).
 */
export function planLocation(values: Values, stored: { centroid_sref: string | null; centroid_sref_system: string | null } | undefined, errors: Errors): Column {
  const columns: Column = {};
  const local: Errors = {};
  readPlainFields('location', values, LOCATION_FIELDS, columns, local);
  if ((!stored || 'name' in values) && !text(values, 'name')) local['location:name'] = 'The name is required.';
  if (!stored || 'centroid_sref' in values || 'centroid_sref_system' in values) {
    const sref = 'centroid_sref' in values || !stored ? text(values, 'centroid_sref') : (stored.centroid_sref ?? undefined);
    const system = 'centroid_sref_system' in values || !stored ? text(values, 'centroid_sref_system') : (stored.centroid_sref_system ?? undefined);
    if (sref === undefined) local['location:centroid_sref'] = 'The spatial reference must be supplied.';
    if (system === undefined) local['location:centroid_sref_system'] = 'The spatial reference system must be supplied.';
    if (sref !== undefined && system !== undefined) {
      try {
        const geometry = srefToGeometry(sref, system);
        columns.centroid_sref = normaliseSref(sref, system);
        columns.centroid_sref_system = system.toUpperCase() === system ? system : system.toLowerCase();
        columns.centroid_geom = Buffer.from(geometry.wkbHex, 'hex');
        columns.centroid_lat = geometry.centroid.lat;
        columns.centroid_lon = geometry.centroid.lon;
      } catch (error) {
        if (!(error instanceof SrefError)) throw error;
        local[error.kind === 'unknown_system' ? 'location:centroid_sref_system' : 'location:centroid_sref'] = error.message;
      }
    }
  }
  columns.public = false;
  addErrors(errors, local);
  return columns;
}
