import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../src/webhooks/backoff.ts';
import { entitiesOf, messageOf, wanted } from '../../src/webhooks/messages.ts';
import { messageId, signature, webhookHeaders } from '../../src/webhooks/signing.ts';
import { parseSubscription, urlProblem } from '../../src/webhooks/validation.ts';

describe('webhook signatures', () => {
  it("when a message is signed, then the signature is the Standard Webhooks specification's own example", () => {
    // The example of the specification (and of its reference libraries).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('when two secrets sign during a rotation, then the header holds both, space-separated, the current one first', () => {
    const headers = webhookHeaders(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='], 'msg_1', 1700000000, '{}');
    const [current, previous] = headers['webhook-signature'].split(' ');
    expect(current).toBe(signature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1700000000, '{}'));
    expect(previous).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(previous).not.toBe(current);
    expect(headers).toMatchObject({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000' });
  });

  it('when a message id is made twice for the same subscription and feed entry, then it is the same; another entry or subscription gives another', () => {
    expect(messageId('wh_a', 'YzEuMTI')).toBe(messageId('wh_a', 'YzEuMTI'));
    expect(messageId('wh_a', 'YzEuMTI')).not.toBe(messageId('wh_a', 'YzEuMTM'));
    expect(messageId('wh_a', 'YzEuMTI')).not.toBe(messageId('wh_b', 'YzEuMTI'));
    expect(messageId('wh_a', 'YzEuMTI')).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
  });
});

describe('the retry schedule', () => {
  const schedule = { baseMs: 10_000, maxMs: 3_600_000 };

  it('when failures follow each other, then the wait doubles from the base up to the maximum, with up to half taken off at random', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, schedule, () => 1))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(backoffMs(1, schedule, () => 0)).toBe(5_000);
    expect(backoffMs(20, schedule, () => 1)).toBe(3_600_000);
    expect(backoffMs(10_000, schedule, () => 1)).toBe(3_600_000);
  });

  it('when the schedule runs for a day, then it makes about forty attempts', () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < 86_400_000) elapsed += backoffMs(++attempts, schedule, () => 0.5);
    expect(attempts).toBeGreaterThan(30);
    expect(attempts).toBeLessThan(50);
  });
});

describe('what a subscription receives', () => {
  const occurrence = { cursor: 'c', entity: 'occurrence', id: '5', operation: 'updated', at: '2026-05-01T10:00:00.000000Z', values: { id: '5', survey_id: '3', taxon_group: 'birds' } };
  const none = { surveyId: null, taxonGroup: null };

  it('when a change is of a type asked for and passes the filter, then it is wanted; otherwise not', () => {
    expect(wanted(occurrence, ['occurrence.updated'], none)).toBe(true);
    expect(wanted(occurrence, ['occurrence.created', 'sample.updated'], none)).toBe(false);
    expect(wanted(occurrence, ['occurrence.updated'], { surveyId: '3', taxonGroup: 'birds' })).toBe(true);
    expect(wanted(occurrence, ['occurrence.updated'], { surveyId: '4', taxonGroup: null })).toBe(false);
    expect(wanted(occurrence, ['occurrence.updated'], { surveyId: null, taxonGroup: 'insects' })).toBe(false);
    // A sample has no taxon group: it does not pass a taxon-group filter.
    expect(wanted({ ...occurrence, entity: 'sample', operation: 'created', values: { id: '1', survey_id: '3' } }, ['sample.created'], { surveyId: null, taxonGroup: 'birds' })).toBe(false);
    // A deletion has no values to filter on.
    const { values: _values, ...deletion } = { ...occurrence, operation: 'deleted' };
    expect(wanted(deletion, ['occurrence.deleted'], { surveyId: '4', taxonGroup: 'insects' })).toBe(true);
  });

  it('when a change becomes a message, then it has the type, the time of the change and the record, without values for a deletion', () => {
    expect(messageOf(occurrence)).toEqual({
      type: 'occurrence.updated',
      timestamp: occurrence.at,
      data: { entity: 'occurrence', id: '5', operation: 'updated', at: occurrence.at, values: occurrence.values },
    });
    const { values: _values, ...deletion } = { ...occurrence, operation: 'deleted' };
    expect(messageOf(deletion).data).not.toHaveProperty('values');
    expect(entitiesOf(['occurrence.created', 'occurrence.deleted', 'sample.created'])).toEqual(['occurrence', 'sample']);
  });
});

describe('subscription input', () => {
  const strict = { allowHttp: false, allowPrivate: false };
  const loose = { allowHttp: true, allowPrivate: true };

  it('when a URL is given, then https:// without credentials passes, http:// only where allowed', () => {
    expect(urlProblem('https://receiver.example.org/hooks?x=1', strict)).toBeUndefined();
    expect(urlProblem('http://receiver.example.org:8080/hooks', strict)).toBe('The URL must be https://.');
    expect(urlProblem('http://127.0.0.1:8080/hooks', loose)).toBeUndefined();
    expect(urlProblem('https://a:b@receiver.example.org/', strict)).toMatch(/credentials/);
    expect(urlProblem('https://receiver.example.org/\u0000', strict)).toMatch(/control/);
    expect(urlProblem('javascript:alert(1)', loose)).toMatch(/https:\/\/ or http:\/\//);
    expect(urlProblem(42, strict)).toMatch(/required/);
  });

  it('given only public addresses allowed, when a URL names an address that is not public, in any spelling, then it is refused; a public one passes', () => {
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://2130706433/hooks', // 127.0.0.1 as one number
      'https://0x7f.1/hooks',
      'https://10.1.2.3/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[::ffff:192.168.0.1]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://localhost/',
      'https://hooks.localhost./',
      'https://0.0.0.0/',
      'https://[2002:7f00:1::]/',
      'https://[::ffff:0:127.0.0.1]/',
    ]) {
      expect(urlProblem(url, strict), url).toMatch(/not at a public address/);
      expect(urlProblem(url, { allowHttp: false, allowPrivate: true }), url).toBeUndefined();
    }
    expect(urlProblem('https://93.184.215.14/hooks', strict)).toBeUndefined();
    expect(urlProblem('https://[2606:4700::1111]/', strict)).toBeUndefined();
  });

  it('when a body is read, then event types are de-duplicated and the filter is kept as strings', () => {
    expect(parseSubscription({ url: 'https://r.example.org/', event_types: ['sample.created', 'sample.created'], filter: { survey_id: 3 } }, strict)).toEqual({
      input: { url: 'https://r.example.org/', eventTypes: ['sample.created'], filter: { surveyId: '3', taxonGroup: null } },
    });
    expect(parseSubscription({ url: 'https://r.example.org/', event_types: ['sample.created'], filter: { survey_id: 0 } }, strict)).toEqual({
      violations: { 'webhook:filter.survey_id': 'A survey id (a positive whole number) is expected.' },
    });
  });
});
