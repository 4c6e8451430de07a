import { describe, expect, it } from 'vitest';
import { headerParts, type Shape } from '../../src/auth/credentials.ts';

const K = 100_000;

describe('Authorization headers under adversarial input', () => {
  it('when a header is huge and almost of a shape, then each shape answers at once', () => {
    const headers = [
      `USER_ID:1:WEBSITE_ID:1:SECRET:${':SCOPE:x'.repeat(K / 8)}:`,
      `WEBSITE_ID:1:SECRET:${':SCOPE:x:USER_ID:'.repeat(K / 18)}:x`,
      `USER:${'a'.repeat(K)}`,
      `USER:a:SECRET:${':'.repeat(K)}`,
      `WEBSITE_ID:${'1'.repeat(K)}:HMAC`,
      `Bearer ${'a.'.repeat(K / 2)}`,
    ];
    const shapes: Shape[] = ['directClient', 'directUser', 'directWebsite', 'hmacClient', 'hmacWebsite'];
    const answers = headers.map((authorization) => shapes.map((shape) => headerParts({ authorization } as never, shape) !== undefined));
    expect(answers).toEqual([
      [false, true, false, false, false],
      [false, false, true, false, false],
      [false, false, false, false, false],
      [true, false, false, false, false],
      [false, false, false, false, false],
      [false, false, false, false, false],
    ]);
  });
});
