import { describe, expect, it } from 'vitest';
import { FixturesError, parseFixtures } from '../src/fixtures.ts';

function problem(raw: unknown): string {
  try {
    parseFixtures(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(FixturesError);
    return (error as Error).message;
  }
  throw new Error('expected the fixtures to be refused');
}

describe('parseFixtures', () => {
  it('when a document is valid, then roles and sharing words become their codes', () => {
    const fixtures = parseFixtures({
      users: [{ id: 7, username: 'alice', websites: [{ website_id: 1, role: 'editor' }] }],
      clients: [{ id: 2, username: 'c', secret: 's', connections: [{ proj_id: 'p', website_id: 1, title: 'P', sharing: 'verification' }] }],
    });
    expect(fixtures.users[0].websites[0].role).toBe(2);
    expect(fixtures.clients[0].connections[0].sharing).toBe('V');
    expect(fixtures.clients[0].connections[0].allow_sensitive).toBe(true);
  });

  it('when a sharing code letter is given, then it is kept', () => {
    const fixtures = parseFixtures({ clients: [{ id: 2, username: 'c', secret: 's', connections: [{ proj_id: 'p', website_id: 1, title: 'P', sharing: 'D' }] }] });
    expect(fixtures.clients[0].connections[0].sharing).toBe('D');
  });

  it('when a key is unknown, then the error names the entry and the key', () => {
    expect(problem({ websites: [{ id: 1, title: 't', url: 'u', password: 'p', colour: 'red' }] })).toMatch(/websites\[0\]: unknown key\(s\) colour/);
    expect(problem({ widgets: [] })).toMatch(/unknown key\(s\) widgets/);
  });

  it('when groups, sample methods and licences are given, then each entry is checked and named like the others', () => {
    const fixtures = parseFixtures({
      groups: [{ id: 5, website_id: 1, title: 'Garden watchers' }],
      sample_methods: [{ id: 900, term: 'Transect' }],
      licences: [{ id: 5, code: 'CC-BY-SA', title: 'Creative Commons Attribution-ShareAlike', url_readable: 'https://creativecommons.org/licenses/by-sa/4.0' }],
    });
    expect(fixtures.groups[0]).toEqual({ id: 5, website_id: 1, title: 'Garden watchers' });
    expect(problem({ groups: [{ id: 5, title: 'No website' }] })).toMatch(/groups\[0\]\.website_id/);
    expect(problem({ sample_methods: [{ id: 900, term: 'Transect', attribute_id: 4 }] })).toMatch(/sample_methods\[0\]: unknown key\(s\) attribute_id/);
    expect(problem({ licences: [{ id: 5, title: 'No code' }] })).toMatch(/licences\[0\]\.code/);
  });

  it('when a nested value is wrong, then the error gives its full path', () => {
    expect(problem({ users: [{ id: 1, username: 'a' }, { id: 2, username: 'b', websites: [{ website_id: 1, role: 'king' }] }] })).toMatch(
      /users\[1\]\.websites\[0\]\.role/,
    );
  });

  it('when an unknown sharing word is given, then the error names it', () => {
    expect(problem({ clients: [{ id: 2, username: 'c', secret: 's', connections: [{ proj_id: 'p', website_id: 1, title: 'P', sharing: 'gossip' }] }] })).toMatch(
      /clients\[0\]\.connections\[0\]\.sharing: unknown sharing gossip/,
    );
  });

  it('when a location attribute names websites and a location type, then they are kept', () => {
    const fixtures = parseFixtures({ attributes: [{ id: 9, entity: 'location', caption: 'Habitat', data_type: 'T', website_ids: [1, 2], location_type_id: 5, required: true }] });
    expect(fixtures.attributes[0]).toMatchObject({ website_ids: [1, 2], location_type_id: 5, required: true, survey_ids: [] });
  });

  it('when an attribute is attached to the wrong kind of owner, then the error names the key', () => {
    expect(problem({ attributes: [{ id: 9, entity: 'location', caption: 'c', data_type: 'T', survey_ids: [1] }] })).toMatch(
      /attributes\[0\]\.survey_ids: location attributes are attached to websites/,
    );
    expect(problem({ attributes: [{ id: 9, entity: 'sample', caption: 'c', data_type: 'T', website_ids: [1] }] })).toMatch(
      /attributes\[0\]\.website_ids: sample attributes are attached to surveys/,
    );
    expect(problem({ attributes: [{ id: 9, entity: 'occurrence', caption: 'c', data_type: 'T', location_type_id: 3 }] })).toMatch(
      /attributes\[0\]\.location_type_id: only location attributes/,
    );
  });

  it('when an id is not a positive whole number, then it is refused', () => {
    expect(problem({ taxa: [{ id: -1, taxon: 'x' }] })).toMatch(/taxa\[0\]\.id/);
  });
});
