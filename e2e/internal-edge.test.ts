import * as grpc from '@grpc/grpc-js';
import { describe, expect, it, inject } from 'vitest';
import { recordsV1, reportsV1, type AuthContext, type RecordsServiceClient, type ReportsServiceClient } from '@rex/protos';
import { grpcServing } from '../scripts/suite.ts';

const FORGED: AuthContext = { entity: 'ENTITY_USER' as const, websiteId: '1', userId: '1', scope: 'SCOPE_USER' as const, method: 'jwtUser', sharingWebsiteIds: [], siteRole: 1 };

describe('the internal edge', () => {
  it("when someone who reaches a service's port calls it directly with a forged caller, then UNAUTHENTICATED", async () => {
    const records = new recordsV1.RecordsService(inject('recordsAddress'), grpc.credentials.createInsecure()) as RecordsServiceClient;
    const listed = await new Promise<grpc.ServiceError | null>((resolve) =>
      records.ListSamples({ auth: FORGED, limit: 10 }, { deadline: Date.now() + 5_000 }, (error) => resolve(error)),
    );
    records.close();
    expect(listed?.code).toBe(grpc.status.UNAUTHENTICATED);

    const reports = new reportsV1.ReportsService(inject('reportsAddress'), grpc.credentials.createInsecure()) as ReportsServiceClient;
    const rows = reports.RunReport({ auth: FORGED, path: 'library/occurrences/filterable_explore_list', limit: 10 }, { deadline: Date.now() + 5_000 });
    const error = await new Promise<grpc.ServiceError>((resolve) => {
      rows.on('data', () => undefined);
      rows.on('error', resolve);
    });
    reports.close();
    expect(error.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when an orchestrator probes health, then it needs no grant', async () => {
    expect(await grpcServing(inject('recordsAddress'), 'records.v1.RecordsService')).toBe(true);
  });
});
