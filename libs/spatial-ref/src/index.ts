// Spatial reference (entered_sref + entered_sref_system) → stored geometry, after the Indicia
// warehouse's spatial_ref helper and its sref_* modules. Grid references become their grid
// square as a polygon; coordinate pairs become a point. Geometries are stored in EPSG:3857.

import proj4 from 'proj4';
import type { Converter } from 'proj4';
import wkx from 'wkx';

export type Geometry = {
  wkbHex: string; // EWKB, little-endian, SRID 3857, upper-case hex as PostGIS prints it
  bbox: [number, number, number, number]; // xmin, ymin, xmax, ymax in EPSG:3857
  centroid: { lat: number; lon: number }; // WGS84
};

export type SrefErrorKind = 'unknown_system' | 'unrecognised';

export class SrefError extends Error {
  readonly kind: SrefErrorKind;

  constructor(kind: SrefErrorKind, message: string) {
    super(message);
    this.name = 'SrefError';
    this.kind = kind;
  }
}

const UNKNOWN_SYSTEM_MESSAGE = 'The spatial reference system is not a valid EPSG or notation code.';
const UNRECOGNISED_MESSAGE = 'The spatial reference is not recognised.';

const STORAGE_SRID = 3857;
const WEB_MERCATOR = '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs';
const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

// proj4 definitions of the EPSG codes the warehouse offers (config/sref_notations.php),
// with the default datum shift to WGS84 that PostGIS's spatial_ref_sys carries.
const EPSG_DEFINITIONS: Record<string, string> = {
  '4326': WGS84,
  '4277': '+proj=longlat +ellps=airy +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +no_defs',
  '3857': WEB_MERCATOR,
  '900913': WEB_MERCATOR,
  '27700': '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs',
  '29903': '+proj=tmerc +lat_0=53.5 +lon_0=-8 +k=1.000035 +x_0=200000 +y_0=250000 +ellps=mod_airy +towgs84=482.5,-130.6,564.6,-1.042,-0.214,-0.631,8.15 +units=m +no_defs',
  '29902': '+proj=tmerc +lat_0=53.5 +lon_0=-8 +k=1.000035 +x_0=200000 +y_0=250000 +ellps=mod_airy +towgs84=482.5,-130.6,564.6,-1.042,-0.214,-0.631,8.15 +units=m +no_defs',
  '2169': '+proj=tmerc +lat_0=49.8333333333333 +lon_0=6.16666666666667 +k=1 +x_0=80000 +y_0=100000 +ellps=intl +towgs84=-189.6806,18.3463,-42.7695,-0.33746,-3.09264,2.53861,0.4598 +units=m +no_defs',
  '27572': '+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +a=6378249.2 +b=6356515 +towgs84=-168,-60,320,0,0,0,0 +pm=paris +units=m +no_defs',
  '31370': '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 +x_0=150000.013 +y_0=5400088.438 +ellps=intl +towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs',
  '3109': '+proj=tmerc +lat_0=49.225 +lon_0=-2.135 +k=0.9999999 +x_0=40000 +y_0=70000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  '23030': '+proj=utm +zone=30 +ellps=intl +towgs84=-87,-98,-121,0,0,0,0 +units=m +no_defs',
  '32630': '+proj=utm +zone=30 +datum=WGS84 +units=m +no_defs',
  '32730': '+proj=utm +zone=30 +south +datum=WGS84 +units=m +no_defs',
  '7878': '+proj=utm +zone=30 +south +ellps=intl +towgs84=-323.65,551.39,-491.22,0,0,0,0 +units=m +no_defs', // Astro DOS 71 / UTM 30S (St Helena)
  '3006': '+proj=utm +zone=33 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  '3021': '+proj=tmerc +lat_0=0 +lon_0=15.8082777777778 +k=1 +x_0=1500000 +y_0=0 +ellps=bessel +towgs84=414.1,41.3,603.1,-0.855,2.141,-7.023,0 +units=m +no_defs',
  '3765': '+proj=tmerc +lat_0=0 +lon_0=16.5 +k=0.9999 +x_0=500000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
};

// Codes whose references are written latitude first ("51.2, -1.1" or "51.2N 1.1W").
const LAT_LONG_SYSTEMS = new Set(['4326', '4277']);

type GridSquare = { west: number; south: number; size: number };

type NotationSystem = {
  epsg: string;
  parseGridReference: (reference: string) => GridSquare | null;
  acceptsCoordinatePair: boolean; // also takes a plain "easting, northing" pair
};

const NOTATION_SYSTEMS: Record<string, NotationSystem> = {
  osgb: { epsg: '27700', parseGridReference: parseOsgbGridReference, acceptsCoordinatePair: false },
  osie: { epsg: '29903', parseGridReference: parseIrishGridReference, acceptsCoordinatePair: false },
  utm30ed50: { epsg: '23030', parseGridReference: parseUtm30GridReference, acceptsCoordinatePair: true },
  utm30wgs84: { epsg: '32630', parseGridReference: parseUtm30GridReference, acceptsCoordinatePair: true },
};

const GRID_NOTATIONS = new Set(['osgb', 'osie']);

export function isKnownSystem(system: string): boolean {
  const key = systemKey(system);
  return Object.hasOwn(NOTATION_SYSTEMS, key) || definitionOf(key) !== undefined;
}

/** Codes written latitude first: the warehouse's two, and any other geographic (longlat) code proj4 knows. */
function isLatLongSystem(key: string): boolean {
  if (LAT_LONG_SYSTEMS.has(key)) return true;
  const builtIn = /^\d{4,5}$/.test(key) && !Object.hasOwn(EPSG_DEFINITIONS, key) ? proj4.defs(`EPSG:${key}`) : undefined;
  return (builtIn as { projName?: string } | undefined)?.projName === 'longlat';
}

/** The reference as the warehouse stores it: grid references upper-cased without spaces. */
export function normaliseSref(sref: string, system: string): string {
  return GRID_NOTATIONS.has(systemKey(system)) ? compactUpperCase(sref) : sref.trim();
}

/** No spatial reference in any system is longer; anything longer is refused before it is parsed. */
export const MAX_SREF_LENGTH = 100;

export function srefToGeometry(sref: string, system: string): Geometry {
  if (sref.length > MAX_SREF_LENGTH) throw new SrefError('unrecognised', `The spatial reference may be at most ${MAX_SREF_LENGTH} characters.`);
  if (system.length > MAX_SREF_LENGTH) throw new SrefError('unknown_system', UNKNOWN_SYSTEM_MESSAGE);
  const key = systemKey(system);
  if (!isKnownSystem(key)) throw new SrefError('unknown_system', UNKNOWN_SYSTEM_MESSAGE);
  const reference = normaliseSref(sref, key);

  if (Object.hasOwn(NOTATION_SYSTEMS, key)) {
    const notation = NOTATION_SYSTEMS[key];
    const square = notation.parseGridReference(compactUpperCase(reference));
    if (square !== null) return squareGeometry(square, notation.epsg);
    const pair = notation.acceptsCoordinatePair ? parseCoordinatePair(reference) : null;
    if (pair === null) throw unrecognised();
    return pointGeometry(pair, notation.epsg);
  }

  if (isLatLongSystem(key)) {
    const latLong = parseLatLong(reference);
    if (latLong === null) throw unrecognised();
    return pointGeometry([latLong.lon, latLong.lat], key);
  }
  const pair = parseCoordinatePair(reference);
  if (pair === null) throw unrecognised();
  return pointGeometry(pair, key);
}

function systemKey(system: string): string {
  return system.trim().toLowerCase();
}

function compactUpperCase(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

function unrecognised(): SrefError {
  return new SrefError('unrecognised', UNRECOGNISED_MESSAGE);
}

// ---------------------------------------------------------------------------------------------
// Grid references.

/** Index of a grid letter in the 25-letter alphabet without I (A=0 … Z=24). */
function gridLetterIndex(letter: string): number {
  const index = letter.charCodeAt(0) - 65;
  return index > 8 ? index - 1 : index;
}

// British National Grid: two letters for the 100 km square, then the digits.
const OSGB_100KM_SQUARES = /^(H[L-Z]|J[LMQR]|N[A-HJ-Z]|O[ABFGLMQRVW]|S[A-HJ-Z]|T[ABFGLMQRVW])(.*)$/;

function parseOsgbGridReference(reference: string): GridSquare | null {
  const match = OSGB_100KM_SQUARES.exec(reference);
  if (!match) return null;
  const first = gridLetterIndex(match[1][0]); // 500 km square; S is the false origin
  const second = gridLetterIndex(match[1][1]); // 100 km square within it
  const east = (((first - 2) % 5) * 5 + (second % 5)) * 100_000;
  const north = (19 - Math.floor(first / 5) * 5 - Math.floor(second / 5)) * 100_000;
  return parseWithin100kmSquare(east, north, match[2]);
}

// Irish Grid: one letter for the 100 km square, A at the north-west.
function parseIrishGridReference(reference: string): GridSquare | null {
  const match = /^([A-HJ-Z])(.*)$/.exec(reference);
  if (!match) return null;
  const index = gridLetterIndex(match[1]);
  return parseWithin100kmSquare((index % 5) * 100_000, (4 - Math.floor(index / 5)) * 100_000, match[2]);
}

// UTM zone 30 squares as the warehouse's utm30 modules read them (Channel Islands):
// column letters S–Z from 100 km easting, row letters U, V, then A–H from 5,300 km northing.
function parseUtm30GridReference(reference: string): GridSquare | null {
  const match = /^([S-Z])([UVA-H])(.*)$/.exec(reference);
  if (!match) return null;
  const east = 100_000 + (match[1].charCodeAt(0) - 83) * 100_000;
  const row = match[2];
  const north = row === 'U' ? 5_300_000 : row === 'V' ? 5_400_000 : 5_500_000 + (row.charCodeAt(0) - 65) * 100_000;
  return parseWithin100kmSquare(east, north, match[3]);
}

/**
 * The part of a grid reference after the 100 km square letters: an even number of digits
 * (up to 10, i.e. 1 m), a DINTY tetrad (2 digits + letter A–Z without O, 2 km, lettered
 * south to north in columns from the west) or a quadrant (2 digits + NE/NW/SE/SW, 5 km).
 */
function parseWithin100kmSquare(squareEast: number, squareNorth: number, rest: string): GridSquare | null {
  const tetrad = /^(\d)(\d)([A-NP-Z])$/.exec(rest);
  if (tetrad) {
    const letter = tetrad[3].charCodeAt(0) - 65;
    const index = letter > 14 ? letter - 1 : letter; // no O
    return {
      west: squareEast + Number(tetrad[1]) * 10_000 + Math.floor(index / 5) * 2_000,
      south: squareNorth + Number(tetrad[2]) * 10_000 + (index % 5) * 2_000,
      size: 2_000,
    };
  }
  const quadrant = /^(\d)(\d)([NS])([EW])$/.exec(rest);
  if (quadrant) {
    return {
      west: squareEast + Number(quadrant[1]) * 10_000 + (quadrant[4] === 'E' ? 5_000 : 0),
      south: squareNorth + Number(quadrant[2]) * 10_000 + (quadrant[3] === 'N' ? 5_000 : 0),
      size: 5_000,
    };
  }
  if (!/^(\d\d){0,5}$/.test(rest)) return null;
  const digitsPerAxis = rest.length / 2;
  const size = 10 ** (5 - digitsPerAxis);
  const east = digitsPerAxis === 0 ? 0 : Number(rest.slice(0, digitsPerAxis)) * size;
  const north = digitsPerAxis === 0 ? 0 : Number(rest.slice(digitsPerAxis)) * size;
  return { west: squareEast + east, south: squareNorth + north, size };
}

// ---------------------------------------------------------------------------------------------
// Coordinate pairs.

// A decimal number written one way only (no optional parts that can match the
// same characters), so that matching stays linear in the input's length.
const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d+)?|\.\d+)`;
const COORDINATE_PAIR = new RegExp(String.raw`^(${NUMBER})(?:\s*,\s*|\s+)(${NUMBER})$`);

/** "x, y" (or "x y"): easting then northing. */
function parseCoordinatePair(reference: string): [number, number] | null {
  const match = COORDINATE_PAIR.exec(reference.trim());
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** Latitude first: "51.2, -1.1", "51.2 -1.1", "51.2N 1.1W", "51.2N, 1.1W". */
function parseLatLong(reference: string): { lat: number; lon: number } | null {
  const parts = reference.toUpperCase().split(/[\s,]+/).filter((part) => part !== '');
  if (parts.length !== 2) return null;
  const lat = parseDegrees(parts[0], 'N', 'S', 90);
  const lon = parseDegrees(parts[1], 'E', 'W', 180);
  return lat === null || lon === null ? null : { lat, lon };
}

/** Decimal degrees with an optional sign or hemisphere letter before or after (not both). */
function parseDegrees(text: string, positive: string, negative: string, limit: number): number | null {
  const match = /^([-+NSEW]?)(\d+(?:\.\d+)?|\.\d+)([NSEW]?)$/.exec(text);
  if (!match) return null;
  const [, prefix, digits, suffix] = match;
  if (prefix !== '' && suffix !== '') return null;
  const hemisphere = prefix.replace(/[-+]/, '') || suffix;
  if (hemisphere !== '' && hemisphere !== positive && hemisphere !== negative) return null;
  const value = Number(digits);
  if (value > limit) return null;
  return prefix === '-' || hemisphere === negative ? -value : value;
}

// ---------------------------------------------------------------------------------------------
// Geometries.

type Position = [number, number];

const converters = new Map<string, Converter>();

function converter(fromEpsg: string, toDefinition: string): Converter {
  const cacheKey = `${fromEpsg}>${toDefinition}`;
  let found = converters.get(cacheKey);
  if (found === undefined) {
    found = proj4(definitionOf(fromEpsg)!, toDefinition);
    converters.set(cacheKey, found);
  }
  return found;
}

/**
 * The proj4 definition of an EPSG code: the codes the warehouse offers, every
 * WGS84 UTM zone (326zz north, 327zz south, 1 to 60), and any other code proj4
 * defines itself; undefined for codes it cannot transform.
 */
function definitionOf(epsg: string): string | undefined {
  if (Object.hasOwn(EPSG_DEFINITIONS, epsg)) return EPSG_DEFINITIONS[epsg];
  const utm = /^32([67])(\d\d)$/.exec(epsg);
  if (utm && Number(utm[2]) >= 1 && Number(utm[2]) <= 60) return `+proj=utm +zone=${Number(utm[2])}${utm[1] === '7' ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
  return /^\d{4,5}$/.test(epsg) && proj4.defs(`EPSG:${epsg}`) ? `EPSG:${epsg}` : undefined;
}

function toStorage(epsg: string, position: Position): Position {
  const [x, y] = EPSG_DEFINITIONS[epsg] === WEB_MERCATOR
    ? position
    : converter(epsg, WEB_MERCATOR).forward<Position>([position[0], position[1]]);
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw unrecognised();
  return [x, y];
}

function toLatLong(epsg: string, position: Position): { lat: number; lon: number } {
  const [lon, lat] = epsg === '4326' ? position : converter(epsg, WGS84).forward<Position>([position[0], position[1]]);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw unrecognised();
  return { lat, lon };
}

function pointGeometry(position: Position, epsg: string): Geometry {
  const stored = toStorage(epsg, position);
  return {
    wkbHex: pointWkbHex(stored),
    bbox: [stored[0], stored[1], stored[0], stored[1]],
    centroid: toLatLong(epsg, position),
  };
}

function squareGeometry(square: GridSquare, epsg: string): Geometry {
  const { west, south, size } = square;
  const east = west + size;
  const north = south + size;
  // The warehouse's ring order, which PostGIS keeps as given: SW, NW, NE, SE, SW (clockwise).
  const corners: Position[] = [[west, south], [west, north], [east, north], [east, south], [west, south]];
  const centroid = toLatLong(epsg, [west + size / 2, south + size / 2]);
  const [centreX] = toStorage('4326', [centroid.lon, centroid.lat]);
  const ring = corners.map((corner) => besideCentre(toStorage(epsg, corner), centreX));
  const xs = ring.map(([x]) => x);
  const ys = ring.map(([, y]) => y);
  return {
    wkbHex: polygonWkbHex(ring),
    bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    centroid,
  };
}

/** The width of the world in EPSG:3857 metres (x runs from -180° to 180°). */
const WORLD_WIDTH = 2 * Math.PI * 6_378_137;

/**
 * A corner moved by the world's width to the side of the square's centre: a square across the
 * antimeridian (UTM zones 1 and 60) would otherwise have corners on both edges of the map and
 * span the whole world.
 */
function besideCentre([x, y]: Position, centreX: number): Position {
  return [x + Math.round((centreX - x) / WORLD_WIDTH) * WORLD_WIDTH, y];
}

// ---------------------------------------------------------------------------------------------
// Blurring, after the warehouse's reduce_precision, get_output_srid and get_output_sref.

export type BlurredLocation = { sref: string; system: string; geometry: Geometry };

/** Square sizes a blurred reference can name; a precision between two takes the larger. */
const BLUR_SIZES = [10, 100, 1_000, 2_000, 5_000, 10_000, 100_000];

/**
 * What others see of a location blurred to `precision` metres: the square of that size holding its
 * centre, on the British or Irish grid where it lies on one (named as a grid reference), else on its
 * UTM zone (named by the square's centre as latitude and longitude). A reference already as coarse
 * is kept as it is.
 */
export function blurSref(sref: string, system: string, precision: number): BlurredLocation {
  const geometry = srefToGeometry(sref, system);
  const size = BLUR_SIZES.find((candidate) => candidate >= precision) ?? BLUR_SIZES[BLUR_SIZES.length - 1];
  if ((gridSquareSize(sref, system) ?? 0) >= size) return { sref: normaliseSref(sref, system), system, geometry };
  const grid = outputGrid(system, geometry.centroid);
  const [x, y] = converter('4326', definitionOf(grid.epsg)!).forward<Position>([geometry.centroid.lon, geometry.centroid.lat]);
  const square = { west: Math.floor(x / size) * size, south: Math.floor(y / size) * size, size };
  const blurred = squareGeometry(square, grid.epsg);
  if (grid.name === 'OSGB') return { sref: osgbGridReference(square), system: 'OSGB', geometry: blurred };
  if (grid.name === 'OSIE') return { sref: irishGridReference(square), system: 'OSIE', geometry: blurred };
  return { sref: latLongReference(blurred.centroid, size), system: '4326', geometry: blurred };
}

/** The size of the square a grid reference names; undefined for coordinates. */
function gridSquareSize(sref: string, system: string): number | undefined {
  const key = systemKey(system);
  if (!Object.hasOwn(NOTATION_SYSTEMS, key)) return undefined;
  return NOTATION_SYSTEMS[key].parseGridReference(compactUpperCase(sref))?.size;
}

type OutputGrid = { name: 'OSGB' | 'OSIE' | 'UTM'; epsg: string };

/** British and Irish references stay on their grid; anything else goes to the grid it lies on, or its UTM zone. */
function outputGrid(system: string, centroid: { lat: number; lon: number }): OutputGrid {
  const key = systemKey(system);
  if (key === 'osgb' || key === 'osie') return { name: key === 'osgb' ? 'OSGB' : 'OSIE', epsg: NOTATION_SYSTEMS[key].epsg };
  const [x, y] = toStorage('4326', [centroid.lon, centroid.lat]);
  // The warehouse's rough Web Mercator boxes first, then the grid's own extent.
  if (x >= -1_196_000 && x <= -599_200 && y >= 6_687_800 && y <= 7_442_470) {
    const [east, north] = converter('4326', EPSG_DEFINITIONS['29903']).forward<Position>([centroid.lon, centroid.lat]);
    if (east >= 10_000 && east <= 367_300 && north >= 10_000 && north <= 468_100 && (east < 332_000 || north < 445_900)) {
      return { name: 'OSIE', epsg: '29903' };
    }
  }
  if (x >= -1_081_873 && x <= 422_933 && y >= 6_405_988 && y <= 8_944_478) {
    const [east, north] = converter('4326', EPSG_DEFINITIONS['27700']).forward<Position>([centroid.lon, centroid.lat]);
    if (east >= 0 && east < 700_000 && north >= 0 && north < 1_300_000) return { name: 'OSGB', epsg: '27700' };
  }
  const zone = Math.min(Math.floor((centroid.lon + 180) / 6) + 1, 60);
  return { name: 'UTM', epsg: `${centroid.lat < 0 ? 327 : 326}${String(zone).padStart(2, '0')}` };
}

/** A 100 km square's letter from its index in the 25-letter alphabet without I. */
const gridLetter = (index: number): string => String.fromCharCode(65 + index + (index >= 8 ? 1 : 0));

function osgbGridReference(square: GridSquare): string {
  const east = Math.floor(square.west / 100_000);
  const fromNorth = 19 - Math.floor(square.south / 100_000);
  const first = fromNorth - (fromNorth % 5) + Math.floor((east + 10) / 5);
  const second = ((fromNorth * 5) % 25) + (east % 5);
  return gridLetter(first) + gridLetter(second) + withinSquare(square);
}

function irishGridReference(square: GridSquare): string {
  return gridLetter((4 - Math.floor(square.south / 100_000)) * 5 + Math.floor(square.west / 100_000)) + withinSquare(square);
}

/** The digits (or tetrad, or quadrant) of a square within its 100 km square; the inverse of parseWithin100kmSquare. */
function withinSquare({ west, south, size }: GridSquare): string {
  const east = west % 100_000;
  const north = south % 100_000;
  const tens = `${Math.floor(east / 10_000)}${Math.floor(north / 10_000)}`;
  if (size === 2_000) {
    const index = Math.floor((east % 10_000) / 2_000) * 5 + Math.floor((north % 10_000) / 2_000);
    return tens + String.fromCharCode(65 + index + (index >= 14 ? 1 : 0)); // no O
  }
  if (size === 5_000) return tens + (north % 10_000 >= 5_000 ? 'N' : 'S') + (east % 10_000 >= 5_000 ? 'E' : 'W');
  const digits = 6 - String(size).length; // 10 m → 4 digits per axis … 100 km → none
  if (digits === 0) return '';
  const pad = (value: number) => String(Math.floor(value / size)).padStart(digits, '0');
  return pad(east) + pad(north);
}

/** "51.23N 1.23W": the warehouse's rounding to the square's size, without its "~". */
function latLongReference({ lat, lon }: { lat: number; lon: number }, size: number): string {
  const decimals = Math.max(7 - String(size).length, 0);
  return `${Math.abs(lat).toFixed(decimals)}${lat >= 0 ? 'N' : 'S'} ${Math.abs(lon).toFixed(decimals)}${lon >= 0 ? 'E' : 'W'}`;
}

// ---------------------------------------------------------------------------------------------
// EWKB: byte order, type with the SRID flag, SRID, then the coordinates (little-endian).

const WKB_POINT = 1;
const WKB_POLYGON = 3;
const EWKB_SRID_FLAG = 0x20000000;
const HEADER_BYTES = 9;
const POSITION_BYTES = 16;

function pointWkbHex(position: Position): string {
  const view = new DataView(new ArrayBuffer(HEADER_BYTES + POSITION_BYTES));
  writeHeader(view, WKB_POINT);
  writePosition(view, HEADER_BYTES, position);
  return toHex(view);
}

function polygonWkbHex(ring: Position[]): string {
  const view = new DataView(new ArrayBuffer(HEADER_BYTES + 8 + ring.length * POSITION_BYTES));
  writeHeader(view, WKB_POLYGON);
  view.setUint32(HEADER_BYTES, 1, true); // rings
  view.setUint32(HEADER_BYTES + 4, ring.length, true); // points in the ring
  ring.forEach((position, index) => writePosition(view, HEADER_BYTES + 8 + index * POSITION_BYTES, position));
  return toHex(view);
}

function writeHeader(view: DataView, geometryType: number): void {
  view.setUint8(0, 1); // little-endian
  view.setUint32(1, (geometryType | EWKB_SRID_FLAG) >>> 0, true);
  view.setUint32(5, STORAGE_SRID, true);
}

function writePosition(view: DataView, offset: number, [x, y]: Position): void {
  // Adding 0 turns -0 into 0, which PostGIS would never print as 0000000000000080.
  view.setFloat64(offset, x + 0, true);
  view.setFloat64(offset + 8, y + 0, true);
}

function toHex(view: DataView): string {
  return Buffer.from(view.buffer).toString('hex').toUpperCase();
}

// ---------------------------------------------------------------------------------------------
// Location boundaries.

export type Boundary = { wkbHex: string; bbox: [number, number, number, number] };

/**
 * A location's boundary from WKT: a POLYGON or MULTIPOLYGON in EPSG:3857, or
 * in any known system when written as EWKT (`SRID=27700;POLYGON(...)`),
 * stored as EWKB in EPSG:3857 like every other geometry.
 */
export function boundaryFromWkt(text: string): Boundary {
  let parsed: wkx.Geometry;
  try {
    parsed = wkx.Geometry.parse(text.trim());
  } catch {
    throw new SrefError('unrecognised', 'The boundary must be a polygon or multipolygon in WKT.');
  }
  const polygons = parsed instanceof wkx.Polygon ? [parsed] : parsed instanceof wkx.MultiPolygon ? parsed.polygons : undefined;
  if (!polygons?.length || polygons.some((polygon) => polygon.exteriorRing.length < 4)) {
    throw new SrefError('unrecognised', 'The boundary must be a polygon or multipolygon in WKT.');
  }
  const epsg = String(parsed.srid || 3857);
  if (epsg !== '3857' && !definitionOf(epsg)) throw new SrefError('unknown_system', UNKNOWN_SYSTEM_MESSAGE);
  const xs: number[] = [];
  const ys: number[] = [];
  const move = (point: wkx.Point) => {
    // WKT numbers such as 1e400 are read as Infinity, which proj4 refuses with a TypeError.
    if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) throw unrecognised();
    if (epsg !== '3857') [point.x, point.y] = toStorage(epsg, [point.x, point.y]);
    xs.push(point.x);
    ys.push(point.y);
  };
  for (const polygon of polygons) for (const ring of [polygon.exteriorRing, ...polygon.interiorRings]) ring.forEach(move);
  parsed.srid = 3857;
  return { wkbHex: parsed.toEwkb().toString('hex').toUpperCase(), bbox: [least(xs), least(ys), greatest(xs), greatest(ys)] };
}

// Math.min(...values) overflows the stack for large boundaries.
const least = (values: number[]) => values.reduce((a, b) => (b < a ? b : a), Infinity);
const greatest = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);
