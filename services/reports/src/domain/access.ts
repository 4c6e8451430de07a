import type { ReportAccess__Output } from '@rex/protos';
import type { ReportDefinition } from '../library/types.ts';

const withXml = (path: string) => (path.endsWith('.xml') ? path : `${path}.xml`);
const listed = (list: string[], path: string) => list.some((entry) => withXml(entry) === withXml(path));

export type Verdict = 'allowed' | 'hidden' | 'forbidden';

/**
 * Whether the caller may see and run a report: restricted reports exist only
 * for callers authorised to them; featured-only callers and connections
 * limited to some reports may run only those.
 */
export function reportVerdict(report: ReportDefinition, access: ReportAccess__Output | null): Verdict {
  if (report.restricted && !listed(access?.authorised ?? [], report.path)) return 'hidden';
  if (access?.featuredOnly && !report.featured) return 'forbidden';
  if (access?.limitToReports?.length && !listed(access.limitToReports, report.path)) return 'forbidden';
  return 'allowed';
}
