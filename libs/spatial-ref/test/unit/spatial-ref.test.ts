import { describe, it, expect } from 'vitest';
import { SrefError, blurSref, isKnownSystem, normaliseSref, srefToGeometry } from '../../src/index.ts';
import type { Geometry } from '../../src/index.ts';

// Spherical ("web") Mercator, written out independently of proj4.
const EARTH_RADIUS = 6378137;

function mercatorX(lon: number): number {
  return (EARTH_RADIUS * lon * Math.PI) / 180;
}

function mercatorY(lat: number): number {
  return EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
}

function mercatorToLatLong(x: number, y: number): { lat: number; lon: number } {
  return {
    lon: (x / EARTH_RADIUS) * (180 / Math.PI),
    lat: (2 * Math.atan(Math.exp(y / EARTH_RADIUS)) - Math.PI / 2) * (180 / Math.PI),
  };
}

type Position = [number, number];

function wkbView(hex: string): DataView {
  const bytes = new Uint8Array(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
  return new DataView(bytes.buffer);
}

function pointOf(geometry: Geometry): Position {
  const view = wkbView(geometry.wkbHex);
  return [view.getFloat64(9, true), view.getFloat64(17, true)];
}

function ringOf(geometry: Geometry): Position[] {
  const view = wkbView(geometry.wkbHex);
  expect(view.getUint32(9, true)).toBe(1); // one ring
  const count = view.getUint32(13, true);
  return Array.from({ length: count }, (_, index): Position => [
    view.getFloat64(17 + index * 16, true),
    view.getFloat64(25 + index * 16, true),
  ]);
}

function bboxCentre(geometry: Geometry): { lat: number; lon: number } {
  const [xmin, ymin, xmax, ymax] = geometry.bbox;
  return mercatorToLatLong((xmin + xmax) / 2, (ymin + ymax) / 2);
}

function srefErrorOf(action: () => unknown): SrefError {
  try {
    action();
  } catch (error) {
    if (error instanceof SrefError) return error;
    throw error;
  }
  throw new Error('expected an SrefError');
}

const POINT_PREFIX = '0101000020110F0000';
const POLYGON_PREFIX = '0103000020110F0000';
const POINT_HEX_LENGTH = 2 * (1 + 4 + 4 + 16);
const POLYGON_HEX_LENGTH = 2 * (1 + 4 + 4 + 4 + 4 + 5 * 16);

describe('isKnownSystem', () => {
  it.each([
    ['OSGB'], ['osgb'], [' Osie '], ['utm30ed50'], ['UTM30WGS84'], ['4326'], ['4277'], ['27700'], ['29903'],
    ['3857'], ['2169'], ['27572'], ['31370'], ['3109'], ['23030'], ['32730'], ['7878'], ['29902'], ['3006'],
    ['3021'], ['3765'],
  ])('when the system is %j, then it is known', (system) => {
    expect(isKnownSystem(system)).toBe(true);
  });

  it.each([['32601'], ['32631'], ['32660'], ['32701'], ['32760'], ['4269']])('when the system is %j (a UTM zone, or a code proj4 defines), then it is known', (system) => {
    expect(isKnownSystem(system)).toBe(true);
  });

  it.each([[''], ['9999'], ['32600'], ['32661'], ['EPSG:4326'], ['mtbqqq'], ['osgb36'], ['constructor'], ['__proto__'], ['hasOwnProperty']])(
    'when the system is %j, then it is not known',
    (system) => {
      expect(isKnownSystem(system)).toBe(false);
    },
  );
});

describe('UTM zones and codes proj4 defines', () => {
  it('when a point is given in UTM zone 31N, then its centroid is where that zone puts it', () => {
    const { centroid } = srefToGeometry('500000, 5700000', '32631');
    expect(centroid.lon).toBeCloseTo(3, 6);
    expect(centroid.lat).toBeCloseTo(51.451, 3);
  });

  it('when the code is a geographic one proj4 defines (4269), then the reference is read latitude first', () => {
    const { centroid } = srefToGeometry('51.5, -0.1', '4269');
    expect(centroid).toEqual({ lat: expect.closeTo(51.5, 6), lon: expect.closeTo(-0.1, 6) });
  });
});

describe('normaliseSref', () => {
  it('when the system is OSGB, then the reference is upper-cased and de-spaced', () => {
    expect(normaliseSref(' su 12 34 ', 'osgb')).toBe('SU1234');
  });

  it('when the system is OSIE, then the reference is upper-cased and de-spaced', () => {
    expect(normaliseSref('o 15 34', 'OSIE')).toBe('O1534');
  });

  it('when the system is a coordinate system, then the reference is only trimmed', () => {
    expect(normaliseSref('  51.5n, 0.12w ', '4326')).toBe('51.5n, 0.12w');
    expect(normaliseSref(' 412500, 134500 ', '27700')).toBe('412500, 134500');
  });
});

describe('SrefError', () => {
  it('when created, then it is an Error carrying its kind and message', () => {
    const error = new SrefError('unrecognised', 'The spatial reference is not recognised.');
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe('unrecognised');
    expect(error.message).toBe('The spatial reference is not recognised.');
    expect(error.name).toBe('SrefError');
  });
});

describe('srefToGeometry', () => {
  describe('British National Grid (OSGB)', () => {
    it('when the reference is a 1 km square, then the geometry is a 5-point polygon EWKB in EPSG:3857', () => {
      const geometry = srefToGeometry('SU1234', 'OSGB');
      expect(geometry.wkbHex.startsWith(`${POLYGON_PREFIX}0100000005000000`)).toBe(true);
      expect(geometry.wkbHex).toHaveLength(POLYGON_HEX_LENGTH);
      expect(geometry.wkbHex).toBe(geometry.wkbHex.toUpperCase());
    });

    it('when the reference is SU1234, then the square lies at about 51.11 N, 1.82 W', () => {
      const geometry = srefToGeometry('SU1234', 'OSGB');
      // SW corner E 412000 N 134000, so the centre is E 412500 N 134500.
      expect(geometry.centroid.lat).toBeCloseTo(51.1097, 3);
      expect(geometry.centroid.lon).toBeCloseTo(-1.8228, 3);
      const centre = bboxCentre(geometry);
      expect(centre.lat).toBeCloseTo(51.1097, 3);
      expect(centre.lon).toBeCloseTo(-1.8228, 3);
    });

    it('when the reference is a 1 km square, then its ring runs SW, NW, NE, SE and closes', () => {
      const ring = ringOf(srefToGeometry('SU1234', 'OSGB'));
      expect(ring).toHaveLength(5);
      const [southWest, northWest, northEast, southEast, closing] = ring;
      expect(closing).toEqual(southWest);
      expect(northWest[1]).toBeGreaterThan(southWest[1]);
      expect(northEast[0]).toBeGreaterThan(northWest[0]);
      expect(southEast[1]).toBeLessThan(northEast[1]);
      expect(southEast[0]).toBeGreaterThan(southWest[0]);
    });

    it('when the reference is a 1 km square at 51 N, then it is about 1.59 km wide in web Mercator metres', () => {
      const [xmin, ymin, xmax, ymax] = srefToGeometry('SU1234', 'OSGB').bbox;
      const stretch = 1 / Math.cos((51.11 * Math.PI) / 180);
      expect(xmax - xmin).toBeGreaterThan(1000 * stretch);
      expect(xmax - xmin).toBeLessThan(1000 * stretch * 1.02);
      expect(ymax - ymin).toBeGreaterThan(1000 * stretch);
      expect(ymax - ymin).toBeLessThan(1000 * stretch * 1.02);
    });

    it('when the reference is TQ3080, then it is in central London', () => {
      const geometry = srefToGeometry('TQ3080', 'OSGB');
      expect(geometry.centroid.lat).toBeCloseTo(51.508, 2);
      expect(geometry.centroid.lon).toBeCloseTo(-0.121, 2);
    });

    it.each([
      ['SU', 100_000],
      ['SU13', 10_000],
      ['SU1234', 1_000],
      ['SU123345', 100],
      ['SU12343456', 10],
      ['SU1234534567', 1],
    ])('when the reference is %s, then the square is %d m across', (reference, size) => {
      const [xmin, , xmax] = srefToGeometry(reference, 'OSGB').bbox;
      const stretch = 1 / Math.cos((51.1 * Math.PI) / 180);
      expect((xmax - xmin) / (size * stretch)).toBeGreaterThan(0.95);
      expect((xmax - xmin) / (size * stretch)).toBeLessThan(1.05);
    });

    it('when the reference has spaces and lower case, then it is the same square', () => {
      expect(srefToGeometry(' su 12 34 ', 'osgb')).toEqual(srefToGeometry('SU1234', 'OSGB'));
    });

    it('when the reference is a DINTY tetrad, then it is the 2 km square lettered up the columns from the SW', () => {
      // SU13A is E 410000–412000 N 130000–132000; C is two squares north; Z is the NE tetrad.
      const tetradA = ringOf(srefToGeometry('SU13A', 'OSGB'));
      expect(tetradA[0]).toEqual(ringOf(srefToGeometry('SU1030', 'OSGB'))[0]);
      expect(tetradA[2]).toEqual(ringOf(srefToGeometry('SU1131', 'OSGB'))[2]);
      const tetradC = ringOf(srefToGeometry('SU13C', 'OSGB'));
      expect(tetradC[0]).toEqual(ringOf(srefToGeometry('SU1034', 'OSGB'))[0]);
      expect(tetradC[2]).toEqual(ringOf(srefToGeometry('SU1135', 'OSGB'))[2]);
      const tetradF = ringOf(srefToGeometry('SU13F', 'OSGB'));
      expect(tetradF[0]).toEqual(ringOf(srefToGeometry('SU1230', 'OSGB'))[0]);
      const tetradZ = ringOf(srefToGeometry('SU13Z', 'OSGB'));
      expect(tetradZ[0]).toEqual(ringOf(srefToGeometry('SU1838', 'OSGB'))[0]);
      expect(tetradZ[2]).toEqual(ringOf(srefToGeometry('SU1939', 'OSGB'))[2]);
    });

    it('when the reference is a quadrant, then it is the 5 km quarter of the 10 km square', () => {
      const northEast = ringOf(srefToGeometry('SU13NE', 'OSGB'));
      expect(northEast[0]).toEqual(ringOf(srefToGeometry('SU1535', 'OSGB'))[0]);
      expect(northEast[2]).toEqual(ringOf(srefToGeometry('SU1939', 'OSGB'))[2]);
      const southWest = ringOf(srefToGeometry('SU13SW', 'OSGB'));
      expect(southWest[0]).toEqual(ringOf(srefToGeometry('SU1030', 'OSGB'))[0]);
      expect(southWest[2]).toEqual(ringOf(srefToGeometry('SU1434', 'OSGB'))[2]);
    });

    it('when the 100 km square is in the far north (HP, Shetland) or north-east (JL), then it is placed there', () => {
      const shetland = srefToGeometry('HP5012', 'OSGB').centroid; // Unst
      expect(shetland.lat).toBeGreaterThan(60.6);
      expect(shetland.lat).toBeLessThan(60.9);
      expect(shetland.lon).toBeGreaterThan(-1.1);
      expect(shetland.lon).toBeLessThan(-0.7);
      const jl = srefToGeometry('JL', 'OSGB').centroid;
      expect(jl.lon).toBeGreaterThan(0);
    });

    it.each([
      ['SU123', 'an odd number of digits'],
      ['SU123456789012', 'more than 10 digits'],
      ['SI1234', 'the letter I'],
      ['XX12', 'letters that are not a grid square'],
      ['HA12', 'a 100 km square outside the grid'],
      ['SU13O', 'the tetrad letter O'],
      ['SU1NE', 'a quadrant of a 100 km square'],
      ['', 'nothing'],
      ['51.5, -0.12', 'a lat/long'],
    ])('when the reference is %j (%s), then it is not recognised', (reference) => {
      const error = srefErrorOf(() => srefToGeometry(reference, 'OSGB'));
      expect(error.kind).toBe('unrecognised');
      expect(error.message).toBe('The spatial reference is not recognised.');
    });

    it('when the square is SZ (Isle of Wight), then it is recognised', () => {
      expect(srefToGeometry('SZ58', 'OSGB').centroid.lat).toBeCloseTo(50.69, 1);
    });
  });

  describe('Irish Grid (OSIE)', () => {
    it('when the reference is O1534, then it is the 1 km square in central Dublin', () => {
      const geometry = srefToGeometry('O1534', 'OSIE');
      expect(geometry.wkbHex.startsWith(POLYGON_PREFIX)).toBe(true);
      expect(geometry.wkbHex).toHaveLength(POLYGON_HEX_LENGTH);
      expect(geometry.centroid.lat).toBeCloseTo(53.348, 2);
      expect(geometry.centroid.lon).toBeCloseTo(-6.266, 2);
    });

    it('when the reference has spaces and lower case, then it is the same square', () => {
      expect(srefToGeometry('o 15 34', 'osie')).toEqual(srefToGeometry('O1534', 'OSIE'));
    });

    it('when the reference is a tetrad, then it is a 2 km square', () => {
      const tetrad = ringOf(srefToGeometry('O13C', 'OSIE'));
      expect(tetrad[0]).toEqual(ringOf(srefToGeometry('O1034', 'OSIE'))[0]);
      expect(tetrad[2]).toEqual(ringOf(srefToGeometry('O1135', 'OSIE'))[2]);
    });

    it.each([['I1234'], ['O123'], ['SU1234'], ['']])('when the reference is %j, then it is not recognised', (reference) => {
      expect(srefErrorOf(() => srefToGeometry(reference, 'OSIE')).kind).toBe('unrecognised');
    });
  });

  describe('latitude and longitude (4326, 4277)', () => {
    it.each([['51.5, -0.12'], ['51.5 -0.12'], ['51.5N 0.12W'], ['51.5N, 0.12W'], ['51.5n,0.12w'], ['N51.5 W0.12'], ['+51.5, -0.12']])(
      'when the reference is %j, then it is the point at 51.5 N, 0.12 W (latitude first)',
      (reference) => {
        const geometry = srefToGeometry(reference, '4326');
        expect(geometry.wkbHex.startsWith(POINT_PREFIX)).toBe(true);
        expect(geometry.wkbHex).toHaveLength(POINT_HEX_LENGTH);
        const [x, y] = pointOf(geometry);
        expect(x).toBeCloseTo(mercatorX(-0.12), 3);
        expect(y).toBeCloseTo(mercatorY(51.5), 3);
        expect(x).toBeCloseTo(-13358.34, 1);
        expect(y).toBeCloseTo(6710219.08, 1);
        expect(geometry.bbox).toEqual([x, y, x, y]);
        expect(geometry.centroid.lat).toBeCloseTo(51.5, 10);
        expect(geometry.centroid.lon).toBeCloseTo(-0.12, 10);
      },
    );

    it('when the reference is in the southern and eastern hemispheres, then both are negative/positive accordingly', () => {
      const geometry = srefToGeometry('33.9S 18.4E', '4326');
      expect(geometry.centroid).toEqual({ lat: -33.9, lon: 18.4 });
      const [x, y] = pointOf(geometry);
      expect(x).toBeCloseTo(mercatorX(18.4), 3);
      expect(y).toBeCloseTo(mercatorY(-33.9), 3);
    });

    it('when the system is 4277 (OSGB36), then the point is shifted by the datum change to WGS84', () => {
      const wgs84 = srefToGeometry('51.5, -0.12', '4326');
      const osgb36 = srefToGeometry('51.5, -0.12', '4277');
      expect(osgb36.centroid.lat).not.toBe(51.5);
      expect(Math.abs(osgb36.centroid.lat - 51.5)).toBeLessThan(0.005);
      expect(Math.abs(osgb36.centroid.lon + 0.12)).toBeLessThan(0.005);
      const [x] = pointOf(osgb36);
      expect(Math.abs(x - pointOf(wgs84)[0])).toBeGreaterThan(10);
      expect(Math.abs(x - pointOf(wgs84)[0])).toBeLessThan(500);
    });

    it.each([
      ['91, 0', 'latitude above 90'],
      ['-90.5, 0', 'latitude below -90'],
      ['90, 0', 'a pole, which has no web Mercator position'],
      ['51.5, 181', 'longitude above 180'],
      ['51.5, -180.1', 'longitude below -180'],
      ['51.5N 0.12N', 'two latitudes'],
      ['0.12W 51.5N', 'longitude first'],
      ['-51.5N, 0.12W', 'both a sign and a hemisphere'],
      ['51.5', 'one number'],
      ['51.5, 0.1, 3', 'three numbers'],
      ['abc', 'text'],
      ['', 'nothing'],
    ])('when the reference is %j (%s), then it is not recognised', (reference) => {
      expect(srefErrorOf(() => srefToGeometry(reference, '4326')).kind).toBe('unrecognised');
    });
  });

  describe('x, y coordinate systems', () => {
    it('when the system is 3857 and the point is (1, 2), then the EWKB is exactly that point', () => {
      const geometry = srefToGeometry('1, 2', '3857');
      // x = 1.0 is 000000000000F03F and y = 2.0 is 0000000000000040 in little-endian doubles.
      expect(geometry.wkbHex).toBe('0101000020110F0000000000000000F03F0000000000000040');
      expect(geometry.bbox).toEqual([1, 2, 1, 2]);
    });

    it('when the system is 3857 and the point is the origin, then no negative zero is written', () => {
      expect(srefToGeometry('0, 0', '3857').wkbHex).toBe(`${POINT_PREFIX}${'0'.repeat(32)}`);
      expect(srefToGeometry('-0, -0', '3857').wkbHex).toBe(`${POINT_PREFIX}${'0'.repeat(32)}`);
    });

    it('when the lat/long is 0, 0, then the stored point is the web Mercator origin', () => {
      const [x, y] = pointOf(srefToGeometry('0, 0', '4326'));
      expect(Object.is(x, -0)).toBe(false);
      expect(Math.abs(x)).toBeLessThan(1e-6);
      expect(Math.abs(y)).toBeLessThan(1e-6);
    });

    it('when the system is 3857, then the centroid is the inverse web Mercator of the point', () => {
      const x = mercatorX(-0.12);
      const y = mercatorY(51.5);
      const geometry = srefToGeometry(`${x}, ${y}`, '3857');
      expect(geometry.centroid.lat).toBeCloseTo(51.5, 8);
      expect(geometry.centroid.lon).toBeCloseTo(-0.12, 8);
    });

    it('when the system is 27700 and the point is the centre of SU1234, then it matches the grid square centroid', () => {
      const point = srefToGeometry('412500, 134500', '27700');
      const square = srefToGeometry('SU1234', 'OSGB');
      expect(point.centroid.lat).toBeCloseTo(square.centroid.lat, 9);
      expect(point.centroid.lon).toBeCloseTo(square.centroid.lon, 9);
    });

    // Each projection's natural origin (or a known place) and the lat/long it must map to.
    it.each([
      ['27700', '400000, -100000', 49, -2, 0.01],
      ['29903', '200000, 250000', 53.5, -8, 0.01],
      ['29902', '315904, 234671', 53.3498, -6.2603, 0.01], // Dublin
      ['2169', '80000, 100000', 49.8333, 6.1667, 0.01],
      ['27572', '600000, 2200000', 46.8, 2.3372, 0.01],
      ['31370', '149000, 170500', 50.8467, 4.3525, 0.02], // Brussels
      ['3109', '40000, 70000', 49.225, -2.135, 0.0001],
      ['23030', '500000, 0', 0, -3, 0.01],
      ['32730', '500000, 10000000', 0, -3, 0.000001],
      ['7878', '500000, 10000000', 0, -3, 0.02],
      ['3006', '500000, 0', 0, 15, 0.000001],
      ['3021', '1500000, 0', 0, 15.8083, 0.02],
      ['3765', '500000, 0', 0, 16.5, 0.000001],
    ])('when the system is %s and the point is (%s), then it is at %d, %d', (system, reference, lat, lon, tolerance) => {
      const geometry = srefToGeometry(reference, system);
      expect(geometry.wkbHex.startsWith(POINT_PREFIX)).toBe(true);
      expect(geometry.wkbHex).toHaveLength(POINT_HEX_LENGTH);
      expect(Math.abs(geometry.centroid.lat - lat)).toBeLessThan(tolerance);
      expect(Math.abs(geometry.centroid.lon - lon)).toBeLessThan(tolerance);
      const [x, y] = pointOf(geometry);
      const stored = mercatorToLatLong(x, y);
      expect(stored.lat).toBeCloseTo(geometry.centroid.lat, 8);
      expect(stored.lon).toBeCloseTo(geometry.centroid.lon, 8);
    });

    it.each([['412500,134500'], ['412500 134500'], ['412500.5, 134500.25'], ['+412500, +134500']])(
      'when the pair is written %j, then it is accepted',
      (reference) => {
        expect(srefToGeometry(reference, '27700').wkbHex.startsWith(POINT_PREFIX)).toBe(true);
      },
    );

    it.each([['412500'], ['412500, 134500, 10'], ['SU1234'], ['abc'], [''], ['1e9, 1e9']])(
      'when the pair is %j, then it is not recognised',
      (reference) => {
        expect(srefErrorOf(() => srefToGeometry(reference, '27700')).kind).toBe('unrecognised');
      },
    );
  });

  describe('UTM zone 30 (utm30ed50, utm30wgs84)', () => {
    it('when the reference is an easting, northing pair, then it is a point in zone 30 (central meridian 3 W)', () => {
      const geometry = srefToGeometry('500000, 0', 'utm30wgs84');
      expect(geometry.wkbHex.startsWith(POINT_PREFIX)).toBe(true);
      expect(geometry.centroid.lat).toBeCloseTo(0, 9);
      expect(geometry.centroid.lon).toBeCloseTo(-3, 9);
    });

    it('when the reference is a grid square, then it is the square polygon with that SW corner', () => {
      // WV: 500 km east, 5,400 km north; WV6545 is E 565000–566000 N 5445000–5446000.
      const square = srefToGeometry('WV6545', 'UTM30WGS84');
      expect(square.wkbHex.startsWith(POLYGON_PREFIX)).toBe(true);
      expect(square.wkbHex).toHaveLength(POLYGON_HEX_LENGTH);
      const centre = srefToGeometry('565500, 5445500', 'utm30wgs84');
      expect(square.centroid.lat).toBeCloseTo(centre.centroid.lat, 9);
      expect(square.centroid.lon).toBeCloseTo(centre.centroid.lon, 9);
    });

    it('when the grid square is WV6545, then it is on Jersey', () => {
      const { lat, lon } = srefToGeometry('wv 65 45', 'utm30ed50').centroid;
      expect(lat).toBeGreaterThan(49.15);
      expect(lat).toBeLessThan(49.27);
      expect(lon).toBeGreaterThan(-2.26);
      expect(lon).toBeLessThan(-2.0);
    });

    it('when the datum is ED50, then the same numbers are about 100 m away from WGS84 ones', () => {
      const ed50 = srefToGeometry('565500, 5450500', 'utm30ed50').centroid;
      const wgs84 = srefToGeometry('565500, 5450500', 'utm30wgs84').centroid;
      expect(Math.abs(ed50.lat - wgs84.lat) + Math.abs(ed50.lon - wgs84.lon)).toBeGreaterThan(0.0005);
      expect(Math.abs(ed50.lat - wgs84.lat) + Math.abs(ed50.lon - wgs84.lon)).toBeLessThan(0.005);
    });

    it.each([['WV654'], ['AV6545'], ['abc'], ['']])('when the reference is %j, then it is not recognised', (reference) => {
      expect(srefErrorOf(() => srefToGeometry(reference, 'utm30ed50')).kind).toBe('unrecognised');
    });
  });

  describe('unknown systems', () => {
    it.each([['9999'], ['mtbqqq'], [''], ['EPSG:27700'], ['constructor']])('when the system is %j, then the error is unknown_system', (system) => {
      const error = srefErrorOf(() => srefToGeometry('SU1234', system));
      expect(error.kind).toBe('unknown_system');
      expect(error.message).toBe('The spatial reference system is not a valid EPSG or notation code.');
    });
  });
});

describe('blurSref', () => {
  /** Distance in metres between two WGS84 points (haversine). */
  function metresBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
    const rad = Math.PI / 180;
    const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
    return 2 * 6371000 * Math.asin(Math.sqrt(h));
  }

  it.each([
    [10_000, 'SU15'],
    [100_000, 'SU'],
    [5_000, 'SU15NW'],
    [2_000, 'SU15I'],
    [1_000, 'SU1256'],
    [100, 'SU123567'],
    [3_000, 'SU15NW'],
  ])('when an OSGB 10 m reference is blurred to %i m, then it becomes %s, whose square is the blurred geometry', (precision, expected) => {
    const blurred = blurSref('SU 1234 5678', 'OSGB', precision);
    expect(blurred.sref).toBe(expected);
    expect(blurred.system).toBe('OSGB');
    expect(blurred.geometry).toEqual(srefToGeometry(expected, 'OSGB'));
  });

  it('when the reference is already as coarse as the precision, then it is kept', () => {
    expect(blurSref('su13', 'OSGB', 10_000)).toEqual({ sref: 'SU13', system: 'OSGB', geometry: srefToGeometry('SU13', 'OSGB') });
    expect(blurSref('SU13G', 'OSGB', 1_000).sref).toBe('SU13G');
  });

  it('when an Irish grid reference is blurred, then it stays on the Irish grid', () => {
    const blurred = blurSref('O1234 5678', 'OSIE', 10_000);
    expect(blurred).toEqual({ sref: 'O15', system: 'OSIE', geometry: srefToGeometry('O15', 'OSIE') });
  });

  it.each([
    ['51.5, -0.12', '4326', 'OSGB', 'TQ37'],
    ['412345, 156789', '27700', 'OSGB', 'SU15'],
    ['53.35, -6.26', '4326', 'OSIE', 'O13'],
  ])('when the point %s (%s) lies on a national grid, then it becomes that grid\'s 10 km square', (sref, system, grid, expected) => {
    const blurred = blurSref(sref, system, 10_000);
    expect(blurred).toEqual({ sref: expected, system: grid, geometry: srefToGeometry(expected, grid) });
  });

  it.each([
    ['48.8566, 2.3522', 'N', 'E'],
    ['-33.9249, 18.4241', 'S', 'E'],
    ['40.7128, -74.006', 'N', 'W'],
  ])('when the point %s lies on no national grid, then it becomes the centre of its UTM 10 km square as latitude and longitude', (sref, ns, ew) => {
    const exact = srefToGeometry(sref, '4326');
    const blurred = blurSref(sref, '4326', 10_000);
    expect(blurred.system).toBe('4326');
    expect(blurred.sref).toMatch(new RegExp(`^\\d+\\.\\d{2}${ns} \\d+\\.\\d{2}${ew}$`));
    expect(metresBetween(srefToGeometry(blurred.sref, '4326').centroid, blurred.geometry.centroid)).toBeLessThan(1_000);
    expect(metresBetween(exact.centroid, blurred.geometry.centroid)).toBeLessThan(7_100);
    const [xmin, ymin, xmax, ymax] = blurred.geometry.bbox;
    expect(ringOf(blurred.geometry)).toHaveLength(5);
    expect(xmax - xmin).toBeGreaterThan(10_000); // Web Mercator stretches 10 km away from the equator
    expect(ymax - ymin).toBeGreaterThan(10_000);
    const [x, y] = pointOf(exact);
    expect(x >= xmin && x <= xmax && y >= ymin && y <= ymax).toBe(true);
  });

  it('when two points lie in the same UTM square, then they blur to the same place', () => {
    expect(blurSref('48.8566, 2.3522', '4326', 10_000)).toEqual(blurSref('48.8567, 2.3523', '4326', 10_000));
  });
});
