import { readAttributes, type AttributeDefinition, type AttributeValue, type AttributeValueUpdate } from './attributes.ts';
import { addErrors, readPlainFields, type Column, type Errors, type FieldKind } from './fields.ts';
import { SrefError, boundaryFromWkt, normaliseSref, srefToGeometry } from '@rex/spatial-ref';
import { text, type Values } from './values.ts';

const LOCATION_FIELDS: Record<string, FieldKind> = {
  name: 'text',
  code: 'text',
  location_type_id: 'integer',
  parent_id: 'integer',
  comment: 'text',
  external_key: 'text',
};

/** A location attribute as attached to the website: for every location, or only for those of one type. */
export type LocationAttribute = AttributeDefinition & { locationTypeId: string | null };

/** The stored state a location update starts from. */
export type StoredLocation = { centroid_sref: string | null; centroid_sref_system: string | null; location_type_id: string | number | null };

export type LocationChanges = {
  columns: Column;
  attributes: AttributeValue[];
  replacedAttributes: Set<string>;
  updatedAttributeValues: AttributeValueUpdate[];
};

/**
 * Reads the `locAttr:<id>` values against the website's location attributes
 * that apply to the location's type (those restricted to another type do not).
 */
function readLocationAttributes(values: Values, locationTypeId: unknown, attributes: LocationAttribute[], isNew: boolean) {
  const type = locationTypeId === null || locationTypeId === undefined ? null : String(locationTypeId);
  const applying = new Map(attributes.filter((a) => a.locationTypeId === null || a.locationTypeId === type).map((a) => [a.id, a]));
  const unavailable = (attributeId: string) => {
    const other = attributes.find((a) => a.id === attributeId);
    return other ? `Attribute ${attributeId} is only available for locations of type ${other.locationTypeId}.` : `Attribute ${attributeId} is not available for locations of this website.`;
  };
  return readAttributes('location', values, applying, isNew, unavailable);
}

/** `boundary_geom`: WKT (see boundaryFromWkt); null or '' removes the boundary. */
function readBoundary(values: Values, columns: Column, errors: Errors): void {
  const wkt = text(values, 'boundary_geom');
  if (wkt === undefined) {
    columns.boundary_geom = null;
    return;
  }
  try {
    columns.boundary_geom = Buffer.from(boundaryFromWkt(wkt).wkbHex, 'hex');
  } catch (error) {
    if (!(error instanceof SrefError)) throw error;
    errors['location:boundary_geom'] = `${error.message} Give it in EPSG:3857, or begin with SRID=<code>; for another system.`;
  }
}

/**
 * Checks a location's values. New locations need a name and a centroid
 * spatial reference; updates change only what was sent. Submitted locations
 * are never public (only administrators make them so). Custom attribute
 * values are checked against the website's location attributes.
 */
export function planLocation(values: Values, stored: StoredLocation | undefined, attributes: LocationAttribute[], errors: Errors): LocationChanges {
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
  if ('boundary_geom' in values) readBoundary(values, columns, local);
  columns.public = false;
  const locationTypeId = 'location_type_id' in columns || !stored ? columns.location_type_id : stored.location_type_id;
  const read = readLocationAttributes(values, locationTypeId, attributes, !stored);
  addErrors(local, read.errors);
  addErrors(errors, local);
  return { columns, attributes: read.values, replacedAttributes: read.replaces, updatedAttributeValues: read.updates };
}
