import { describe, it, expect } from 'vitest';
import { formatVagueDate, isInFuture, parseVagueDate } from '../../src/domain/vague-date.ts';
import type { VagueDate } from '../../src/domain/vague-date.ts';

// A fixed "today" (local time) so that two-digit years and year-less dates are deterministic.
const TODAY = new Date(2026, 0, 15);

function parse(input: string): VagueDate | null {
  return parseVagueDate(input, TODAY);
}

function vague(start: string | null, end: string | null, type: string): VagueDate {
  return { start, end, type };
}

describe('parseVagueDate', () => {
  describe('single days', () => {
    it.each([
      ['2020-08-01', '2020-08-01'],
      ['01/08/2020', '2020-08-01'],
      ['1/8/2020', '2020-08-01'],
      ['01/08/20', '2020-08-01'],
      ['01.08.2020', '2020-08-01'],
      ['01.08.20', '2020-08-01'],
      ['12 Oct 1997', '1997-10-12'],
      ['12 October 1997', '1997-10-12'],
      ['12 oct 97', '1997-10-12'],
      ['Monday 12 October 1997', '1997-10-12'],
      ['Mon 12 Oct 1997', '1997-10-12'],
      ['MONDAY 12 OCTOBER 1997', '1997-10-12'],
    ])('when the date is %s, then it is the single day %s (D)', (input, day) => {
      expect(parse(input)).toEqual(vague(day, day, 'D'));
    });

    it('when the date is 29/02/2020 (a leap day), then it is accepted', () => {
      expect(parse('29/02/2020')).toEqual(vague('2020-02-29', '2020-02-29', 'D'));
    });

    it('when the day is given m/d/yy and cannot be d/m/yy, then the American reading is used as the warehouse does', () => {
      expect(parse('12/31/20')).toEqual(vague('2020-12-31', '2020-12-31', 'D'));
    });

    it('when the text has surrounding and repeated spaces, then they are ignored', () => {
      expect(parse('  12   Oct  1997 ')).toEqual(vague('1997-10-12', '1997-10-12', 'D'));
    });
  });

  describe('two-digit years', () => {
    it('when the two-digit year is not after the current two-digit year, then it is this century', () => {
      expect(parse('01/08/26')?.start).toBe('2026-08-01');
      expect(parse('01/08/00')?.start).toBe('2000-08-01');
    });

    it('when the two-digit year is after the current two-digit year, then it is the last century', () => {
      expect(parse('01/08/27')?.start).toBe('1927-08-01');
      expect(parse('98')).toEqual(vague('1998-01-01', '1998-12-31', 'Y'));
    });
  });

  describe('months in a year', () => {
    it.each([
      ['1998-06'],
      ['06/1998'],
      ['6/1998'],
      ['06/98'],
      ['June 1998'],
      ['Jun 1998'],
      ['june 98'],
    ])('when the date is %s, then it is June 1998 (O)', (input) => {
      expect(parse(input)).toEqual(vague('1998-06-01', '1998-06-30', 'O'));
    });

    it('when the month is February of a leap year, then it ends on the 29th', () => {
      expect(parse('February 2024')).toEqual(vague('2024-02-01', '2024-02-29', 'O'));
    });
  });

  describe('months and seasons without a year', () => {
    it.each([['October'], ['october'], ['Oct'], ['OCT']])(
      'when the date is %s, then it is the month October (M) with the current year\'s dates',
      (input) => {
        expect(parse(input)).toEqual(vague('2026-10-01', '2026-10-31', 'M'));
      },
    );

    it('when the date is a season, then it is type S with the current year\'s dates', () => {
      expect(parse('Autumn')).toEqual(vague('2026-09-01', '2026-11-30', 'S'));
      expect(parse('spring')).toEqual(vague('2026-03-01', '2026-05-31', 'S'));
    });

    it('when the season is Winter, then it starts in December of the previous year', () => {
      expect(parse('Winter')).toEqual(vague('2025-12-01', '2026-02-28', 'S'));
    });
  });

  describe('seasons in a year', () => {
    it.each([
      ['Spring 2008', '2008-03-01', '2008-05-31'],
      ['Summer 2008', '2008-06-01', '2008-08-31'],
      ['Autumn 2008', '2008-09-01', '2008-11-30'],
      ['autumn 08', '2008-09-01', '2008-11-30'],
      ['Aut 2008', '2008-09-01', '2008-11-30'],
      ['Winter 2010', '2009-12-01', '2010-02-28'],
      ['Winter 2008', '2007-12-01', '2008-02-29'],
    ])('when the date is %s, then it runs from %s to %s (P)', (input, start, end) => {
      expect(parse(input)).toEqual(vague(start, end, 'P'));
    });
  });

  describe('years and centuries', () => {
    it('when the date is a four-digit year, then it is the whole year (Y)', () => {
      expect(parse('1998')).toEqual(vague('1998-01-01', '1998-12-31', 'Y'));
    });

    it('when the date is a century, then it runs from year 1 to year 100 of it (C)', () => {
      expect(parse('20C')).toEqual(vague('1901-01-01', '2000-12-31', 'C'));
      expect(parse('19c')).toEqual(vague('1801-01-01', '1900-12-31', 'C'));
    });
  });

  describe('closed ranges', () => {
    it.each([
      ['12/10/1997 to 15/10/1997'],
      ['12/10/1997 - 15/10/1997'],
      ['12/10/1997-15/10/1997'],
      ['12.10.1997-15.10.1997'],
      ['1997-10-12 to 1997-10-15'],
      ['12 Oct 1997 TO 15 Oct 1997'],
    ])('when the range is %s, then it is a range of days (DD)', (input) => {
      expect(parse(input)).toEqual(vague('1997-10-12', '1997-10-15', 'DD'));
    });

    it.each([['June 1998 to August 1998'], ['06/1998-08/1998'], ['1998-06 - 1998-08']])(
      'when the range is %s, then it is a range of months (OO)',
      (input) => {
        expect(parse(input)).toEqual(vague('1998-06-01', '1998-08-31', 'OO'));
      },
    );

    it.each([['1998-2000'], ['1998 to 2000'], ['1998 - 2000']])(
      'when the range is %s, then it is a range of years (YY)',
      (input) => {
        expect(parse(input)).toEqual(vague('1998-01-01', '2000-12-31', 'YY'));
      },
    );

    it.each([['19C-20C'], ['19C to 20C'], ['19c - 20c']])(
      'when the range is %s, then it is a range of centuries (CC)',
      (input) => {
        expect(parse(input)).toEqual(vague('1801-01-01', '2000-12-31', 'CC'));
      },
    );
  });

  describe('open ranges', () => {
    it.each([['from 1998'], ['From 1998'], ['after 1998'], ['1998-']])(
      'when the date is %s, then it is from the start of 1998 (Y-)',
      (input) => {
        expect(parse(input)).toEqual(vague('1998-01-01', null, 'Y-'));
      },
    );

    it.each([['before 1998'], ['pre 1998'], ['to 1998'], ['-1998']])(
      'when the date is %s, then it is up to the end of 1998 (-Y)',
      (input) => {
        expect(parse(input)).toEqual(vague(null, '1998-12-31', '-Y'));
      },
    );

    it.each([['20C-'], ['from 20C']])('when the date is %s, then it is from the 20th century (C-)', (input) => {
      expect(parse(input)).toEqual(vague('1901-01-01', null, 'C-'));
    });

    it.each([['-20C'], ['before 20C']])('when the date is %s, then it is up to the 20th century (-C)', (input) => {
      expect(parse(input)).toEqual(vague(null, '2000-12-31', '-C'));
    });

    it('when an open range names a day, then it is that single day as a DD range, as in the warehouse', () => {
      expect(parse('from 12/10/1997')).toEqual(vague('1997-10-12', '1997-10-12', 'DD'));
      expect(parse('12/10/1997-')).toEqual(vague('1997-10-12', '1997-10-12', 'DD'));
    });

    it('when an open range names a month, then it is that single month as an OO range, as in the warehouse', () => {
      expect(parse('before June 1998')).toEqual(vague('1998-06-01', '1998-06-30', 'OO'));
    });
  });

  describe('unknown dates', () => {
    it.each([['U'], ['Unknown'], ['unknown'], [' U ']])('when the date is %s, then it is unknown with no dates (U)', (input) => {
      expect(parse(input)).toEqual(vague(null, null, 'U'));
    });
  });

  describe('unrecognised dates', () => {
    it.each([
      ['', 'empty'],
      ['   ', 'blank'],
      ['yesterday', 'not a date'],
      ['31/02/2020', 'not in the calendar'],
      ['29/02/2021', 'a leap day in a common year'],
      ['13/13/2020', 'month 13'],
      ['2020-13', 'month 13 in ISO form'],
      ['2020-02-30', 'not in the calendar in ISO form'],
      ['0C', 'century zero'],
      ['Sept 2020', 'a month abbreviation that is not three letters'],
      ['Funday 12 October 1997', 'not a weekday'],
      ['2000 to 1998', 'ending before it starts'],
      ['15/10/1997 to 12/10/1997', 'days ending before they start'],
      ['1998 to 12/10/1999', 'a range mixing a year and a day'],
      ['October to November', 'a range of months without a year'],
      ['Spring 2008 to Autumn 2008', 'a range of seasons'],
      ['from', 'an open range without a date'],
      ['-', 'a lone hyphen'],
      ['1998 to', 'a range missing its end'],
    ])('when the date is %j (%s), then it is not recognised', (input) => {
      expect(parse(input)).toBeNull();
    });
  });

  it('when no "today" is passed, then the current year is used for year-less dates', () => {
    const year = new Date().getFullYear();
    expect(parseVagueDate('March')?.start).toBe(`${year}-03-01`);
  });
});

describe('formatVagueDate', () => {
  it.each([
    [vague('2020-08-01', '2020-08-01', 'D'), '01/08/2020'],
    [vague('2020-08-01', '2020-08-05', 'DD'), '01/08/2020 to 05/08/2020'],
    [vague('2020-08-01', '2020-08-31', 'O'), '08/2020'],
    [vague('2020-08-01', '2020-09-30', 'OO'), '08/2020 to 09/2020'],
    [vague('2020-01-01', '2020-12-31', 'Y'), '2020'],
    [vague('2019-01-01', '2020-12-31', 'YY'), '2019 to 2020'],
    [vague('2020-01-01', null, 'Y-'), 'From 2020'],
    [vague(null, '2020-12-31', '-Y'), 'To 2020'],
    [vague(null, null, 'U'), 'Unknown'],
    [vague('2026-08-01', '2026-08-31', 'M'), 'August'],
    [vague('2026-09-01', '2026-11-30', 'S'), 'Autumn'],
    [vague('2008-09-01', '2008-11-30', 'P'), 'Autumn 2008'],
    [vague('2009-12-01', '2010-02-28', 'P'), 'Winter 2010'],
    [vague('1901-01-01', '2000-12-31', 'C'), '20C'],
    [vague('1801-01-01', '2000-12-31', 'CC'), '19C to 20C'],
    [vague('1901-01-01', null, 'C-'), 'From 20C'],
    [vague(null, '2000-12-31', '-C'), 'To 20C'],
  ])('when the date is %j, then it is shown as %j', (date, expected) => {
    expect(formatVagueDate(date)).toBe(expected);
  });

  it('when a century is stored as 1900–1999, then it is still shown as 20C', () => {
    expect(formatVagueDate(vague('1900-01-01', '1999-12-31', 'C'))).toBe('20C');
    expect(formatVagueDate(vague(null, '1999-12-31', '-C'))).toBe('To 20C');
  });

  it('when the dates are timestamps, then only their date part is used', () => {
    expect(formatVagueDate(vague('2020-08-01T00:00:00Z', '2020-08-01T00:00:00Z', 'D'))).toBe('01/08/2020');
  });

  it('when the type is not a vague date type, then the result is empty', () => {
    expect(formatVagueDate(vague('2020-08-01', '2020-08-01', 'X'))).toBe('');
  });

  it('when a date the type needs is missing, then the result is empty', () => {
    expect(formatVagueDate(vague(null, null, 'D'))).toBe('');
    expect(formatVagueDate(vague('2020-01-01', null, 'YY'))).toBe('');
    expect(formatVagueDate(vague(null, '2020-12-31', 'Y-'))).toBe('');
  });

  it('when a season does not start on a season\'s first month, then the result is empty', () => {
    expect(formatVagueDate(vague('2008-10-01', '2008-12-31', 'P'))).toBe('');
  });

  it.each([
    ['01/08/2020'], ['01/08/2020 to 05/08/2020'], ['08/2020'], ['08/2020 to 09/2020'], ['2020'], ['2019 to 2020'],
    ['From 2020'], ['To 2020'], ['Unknown'], ['August'], ['Autumn'], ['Winter'], ['Autumn 2008'], ['Winter 2010'],
    ['20C'], ['19C to 20C'], ['From 20C'], ['To 20C'],
  ])('when %j is parsed and formatted, then the same text comes back', (text) => {
    const parsed = parse(text);
    expect(parsed).not.toBeNull();
    expect(formatVagueDate(parsed as VagueDate)).toBe(text);
  });
});

describe('isInFuture', () => {
  it('when the day is after today, then it is in the future', () => {
    expect(isInFuture(vague('2026-01-16', '2026-01-16', 'D'), TODAY)).toBe(true);
  });

  it('when the day is today or earlier, then it is not in the future', () => {
    expect(isInFuture(vague('2026-01-15', '2026-01-15', 'D'), TODAY)).toBe(false);
    expect(isInFuture(vague('2025-12-31', '2025-12-31', 'D'), TODAY)).toBe(false);
  });

  it('when a range starts today or earlier but ends later, then it is not in the future', () => {
    expect(isInFuture(vague('2026-01-01', '2026-12-31', 'Y'), TODAY)).toBe(false);
  });

  it('when a range starts after today, then it is in the future', () => {
    expect(isInFuture(vague('2027-01-01', '2027-12-31', 'Y'), TODAY)).toBe(true);
    expect(isInFuture(vague('2027-01-01', null, 'Y-'), TODAY)).toBe(true);
  });

  it('when the date has no start, then it is not in the future', () => {
    expect(isInFuture(vague(null, '2099-12-31', '-Y'), TODAY)).toBe(false);
    expect(isInFuture(vague(null, null, 'U'), TODAY)).toBe(false);
  });

  it('when the date is a month or season without a year, then it is not in the future', () => {
    expect(isInFuture(parse('October') as VagueDate, TODAY)).toBe(false);
    expect(isInFuture(parse('Summer') as VagueDate, TODAY)).toBe(false);
  });

  it('when no "today" is passed, then the current date is used', () => {
    expect(isInFuture(vague('2999-01-01', '2999-01-01', 'D'))).toBe(true);
    expect(isInFuture(vague('2000-01-01', '2000-01-01', 'D'))).toBe(false);
  });
});
