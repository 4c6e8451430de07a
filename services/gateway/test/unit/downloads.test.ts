import { describe, expect, it } from 'vitest';
import { downloadHeaders } from '../../src/routes/media-queue.ts';
import { csvCell } from '@rex/protos';

describe('report CSV cells', () => {
  it('when a value would start a spreadsheet formula, then it is neutralised; numbers and plain text are kept', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const value of ['+1+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(value).replace(/^"/, '').startsWith("'"), value).toBe(true);
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('+44')).toBe('+44');
    expect(csvCell('Quercus robur')).toBe('Quercus robur');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
  });
});

describe('download headers', () => {
  it('when a file is an image or sound, then it shows inline; anything else is an attachment in a sandbox; never sniffed', () => {
    expect(downloadHeaders('image/jpeg', 10)).toEqual({ 'Content-Length': '10', 'X-Content-Type-Options': 'nosniff', 'Content-Disposition': 'inline' });
    expect(downloadHeaders('audio/mpeg', 10)['Content-Disposition']).toBe('inline');
    for (const type of ['application/pdf', 'text/html', 'image/svg+xml', 'application/octet-stream']) {
      expect(downloadHeaders(type, 1)).toMatchObject({ 'X-Content-Type-Options': 'nosniff', 'Content-Disposition': 'attachment', 'Content-Security-Policy': 'sandbox' });
    }
  });
});
