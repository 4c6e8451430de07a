import fc from 'fast-check';
import wkx from 'wkx';
import { describe, expect, it } from 'vitest';
import { MAX_SREF_LENGTH, SrefError, blurSref, boundaryFromWkt, normaliseSref, srefToGeometry, type Geometry } from '../../src/index.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const WORLD_WIDTH = 2 * Math.PI * 6_378_137; // EPSG:3857 x from -180° to 180°

const SYSTEMS = ['OSGB', 'osie', 'utm30ed50', 'UTM30WGS84', '4326', '4277', '3857', '900913', '27700', '29903', '2169', '27572', '31370', '32631', '32760', '4269', '2154'];

/** The geometry, or the SrefError's kind; any other error fails the property. */
function attempt(run: () => Geometry): Geometry | string {
  try {
    return run();
  } catch (error) {
    if (error instanceof SrefError) return error.kind;
    throw error;
  }
}

// Spatial references as recorders type them: the grammar of each system, with letters outside the
// grids, odd digit counts, signs, hemisphere letters and separators mixed in.
const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
const exactDigits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcz');
const gridRef = fc.tuple(fc.array(letter, { minLength: 1, maxLength: 2 }), fc.constantFrom('', ' '), digits(11), fc.constantFrom('', 'A', 'P', 'Z', 'NE', 'sw', 'O')).map(
  ([letters, space, numbers, suffix]) => `${letters.join('')}${space}${numbers}${suffix}`,
);
const number = fc.oneof(
  fc.double({ min: -1e7, max: 1e7, noNaN: true }).map(String),
  fc.tuple(fc.constantFrom('', '-', '+'), digits(12), fc.constantFrom('', '.'), digits(8)).map((parts) => parts.join('')),
  fc.constantFrom('1e5', 'Infinity', '-0', '.5', '5.', '0x10', '١٢'),
);
const hemisphere = fc.constantFrom('', 'N', 'S', 'E', 'W', 'n', 'X');
const coordinates = fc.tuple(hemisphere, number, hemisphere, fc.constantFrom(', ', ' ', ',', '  ,  ', ';', ''), hemisphere, number, hemisphere).map((parts) => parts.join(''));
const anySref = fc.oneof(gridRef, coordinates, fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 120 }));
const anySystem = fc.oneof(fc.constantFrom(...SYSTEMS), fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 999_999 }).map(String));

describe('spatial references, property-based', () => {
  it('when any reference in any system is read, then it is a geometry whose box holds its centroid, or an SrefError', () => {
    fc.assert(
      fc.property(anySref, anySystem, (sref, system) => {
        const geometry = attempt(() => srefToGeometry(sref, system));
        if (typeof geometry === 'string') return;
        const [xmin, ymin, xmax, ymax] = geometry.bbox;
        expect(geometry.bbox.every(Number.isFinite)).toBe(true);
        expect(xmin <= xmax && ymin <= ymax).toBe(true);
        expect(Math.abs(geometry.centroid.lat) <= 90 && Math.abs(geometry.centroid.lon) <= 180).toBe(true);
        expect(xmax - xmin < WORLD_WIDTH / 2, 'a reference names a small place, not a band around the world').toBe(true);
        const stored = wkx.Geometry.parse(Buffer.from(geometry.wkbHex, 'hex'));
        expect(stored.srid).toBe(3857);
        const points = stored instanceof wkx.Point ? [stored] : (stored as wkx.Polygon).exteriorRing;
        expect(points.every((p) => p.x >= xmin && p.x <= xmax && p.y >= ymin && p.y <= ymax)).toBe(true);
      }),
      runs(2_000),
    );
  });

  it('when a reference is normalised, then it names the same place and normalising again changes nothing', () => {
    fc.assert(
      fc.property(fc.oneof(gridRef, coordinates), fc.constantFrom(...SYSTEMS), (sref, system) => {
        const normalised = normaliseSref(sref, system);
        expect(normaliseSref(normalised, system)).toBe(normalised);
        expect(attempt(() => srefToGeometry(normalised, system))).toEqual(attempt(() => srefToGeometry(sref, system)));
      }),
      runs(1_000),
    );
  });

  it('when a reference is longer than any in any system, then it is refused whatever it holds', () => {
    fc.assert(
      fc.property(fc.oneof(gridRef, coordinates), fc.integer({ min: MAX_SREF_LENGTH + 1, max: 100_000 }), fc.constantFrom(...SYSTEMS), (sref, length, system) => {
        expect(attempt(() => srefToGeometry(sref.padEnd(length, '0'), system))).toBe('unrecognised');
      }),
      runs(100),
    );
  });
});

describe('blurred references, property-based', () => {
  const precision = fc.constantFrom(1, 10, 100, 1_000, 2_000, 5_000, 10_000, 100_000, 3_000, 250_000);
  // Around the antimeridian a place is at x or at x ± the world's width: the same on the map.
  const inside = (geometry: Geometry, point: Geometry) => {
    const [xmin, ymin, xmax, ymax] = geometry.bbox;
    const [x, y] = [point.bbox[0], point.bbox[1]];
    const slack = 1e-6 * Math.max(1, Math.abs(x), Math.abs(y));
    const within = (x: number) => x >= xmin - slack && x <= xmax + slack && y >= ymin - slack && y <= ymax + slack;
    return within(x) || within(x - WORLD_WIDTH) || within(x + WORLD_WIDTH);
  };

  it('when a point anywhere is blurred, then its reference reads back as the blurred square (a grid reference) or a point inside it (latitude and longitude), and the square holds the point', () => {
    const lat = fc.double({ min: -79.9, max: 83.9, noNaN: true });
    const lon = fc.double({ min: -179.999, max: 179.999, noNaN: true });
    fc.assert(
      fc.property(lat, lon, precision, (la, lo, metres) => {
        const sref = `${la.toFixed(6)}, ${lo.toFixed(6)}`;
        const point = srefToGeometry(sref, '4326');
        const blurred = blurSref(sref, '4326', metres);
        expect(inside(blurred.geometry, point), `${sref} → ${blurred.sref} ${blurred.system}`).toBe(true);
        const readBack = srefToGeometry(blurred.sref, blurred.system);
        if (blurred.system === '4326') expect(inside(blurred.geometry, readBack), `${sref} → ${blurred.sref}`).toBe(true);
        else expect(readBack, `${sref} → ${blurred.sref} ${blurred.system}`).toEqual(blurred.geometry);
      }),
      runs(500),
    );
  });

  it('when a British or Irish grid reference is blurred, then it stays on its grid as a reference that reads back as the blurred square holding the original', () => {
    const british = fc.tuple(fc.constantFrom('SU', 'TQ', 'NN', 'HP', 'SV', 'TG', 'NA', 'OV'), fc.integer({ min: 1, max: 5 })).chain(([square, perAxis]) =>
      fc.tuple(fc.constant(square), exactDigits(perAxis), exactDigits(perAxis)),
    );
    const grid = fc.oneof(
      british.map(([square, east, north]) => ({ sref: `${square}${east}${north}`, system: 'OSGB' })),
      fc.tuple(fc.constantFrom('O', 'N', 'J', 'V', 'S'), exactDigits(4), exactDigits(4)).map(([square, east, north]) => ({ sref: `${square}${east}${north}`, system: 'OSIE' })),
    );
    fc.assert(
      fc.property(grid, precision, ({ sref, system }, metres) => {
        const original = srefToGeometry(sref, system);
        const blurred = blurSref(sref, system, metres);
        expect(blurred.system).toBe(system);
        expect(srefToGeometry(blurred.sref, blurred.system)).toEqual(blurred.geometry);
        const centre = srefToGeometry(`${original.centroid.lat}, ${original.centroid.lon}`, '4326');
        expect(inside(blurred.geometry, centre), `${sref} → ${blurred.sref}`).toBe(true);
      }),
      runs(500),
    );
  });
});

describe('location boundaries, property-based', () => {
  const coordinate = fc.oneof(fc.double({ min: -2e7, max: 2e7, noNaN: true }).map(String), fc.constantFrom('1e400', 'NaN', '-', '', '1 2 3', '0'));
  const ring = fc.array(fc.tuple(coordinate, coordinate).map(([x, y]) => `${x} ${y}`), { minLength: 0, maxLength: 8 }).map((points) => `(${[...points, points[0] ?? ''].join(',')})`);
  const polygon = fc.array(ring, { minLength: 0, maxLength: 2 }).map((rings) => `(${rings.join(',')})`);
  const wkt = fc.oneof(
    polygon.map((body) => `POLYGON${body}`),
    fc.array(polygon, { maxLength: 2 }).map((bodies) => `MULTIPOLYGON(${bodies.join(',')})`),
    fc.tuple(fc.constantFrom('0', '3857', '4326', '27700', '-1', '99999', 'x', '32630'), polygon).map(([srid, body]) => `SRID=${srid};POLYGON${body}`),
    fc.constantFrom('POINT(1 2)', 'POLYGON EMPTY', 'LINESTRING(0 0,1 1)', 'GEOMETRYCOLLECTION(POLYGON((0 0,0 1,1 1,0 0)))', 'POLYGON((0 0,0 1,1 1,0 0)'),
    fc.string({ maxLength: 40 }),
  );

  it('when any text is read as a boundary, then it is a polygon in web Mercator whose box holds every vertex, or an SrefError', () => {
    fc.assert(
      fc.property(wkt, (text) => {
        let boundary;
        try {
          boundary = boundaryFromWkt(text);
        } catch (error) {
          if (error instanceof SrefError) return;
          throw error;
        }
        const stored = wkx.Geometry.parse(Buffer.from(boundary.wkbHex, 'hex'));
        expect(stored.srid).toBe(3857);
        const [xmin, ymin, xmax, ymax] = boundary.bbox;
        const polygons = stored instanceof wkx.MultiPolygon ? stored.polygons : [stored as wkx.Polygon];
        for (const p of polygons.flatMap((polygon) => [...polygon.exteriorRing, ...polygon.interiorRings.flat()])) {
          expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
          expect(p.x >= xmin && p.x <= xmax && p.y >= ymin && p.y <= ymax).toBe(true);
        }
      }),
      runs(1_000),
    );
  });
});

describe('spatial references, regressions found by the properties', () => {
  it('when a point beside the antimeridian is blurred to a UTM square across it, then the square is one small square holding the point, not a band around the world', () => {
    const blurred = blurSref('0.000000, -179.695024', '4326', 100_000);
    const [xmin, , xmax] = blurred.geometry.bbox;
    expect(xmax - xmin).toBeLessThan(200_000);
    expect(blurred.sref).toBe('0.5N 179.9E');
    const point = srefToGeometry('0.000000, -179.695024', '4326').bbox[0] + WORLD_WIDTH;
    expect(point).toBeGreaterThan(xmin);
    expect(point).toBeLessThan(xmax);
  });

  it('when a boundary has a coordinate too large for a number (1e400), then it is an SrefError, not a TypeError from the projection', () => {
    expect(() => boundaryFromWkt('SRID=4326;POLYGON((0 1e400,1e400 1e400,1e400 0,0 1e400))')).toThrow(SrefError);
    expect(() => boundaryFromWkt('POLYGON((0 1e400,1e400 1e400,1e400 0,0 1e400))')).toThrow(SrefError);
  });
});
