import { ServiceClient, type CallSecret } from '@rex/grpc';
import { mediaV1, type AuthContext__Output, type ClaimResponse__Output, type ReserveResponse__Output } from '@rex/protos';

/** Records' client of the media service: reserving, confirming and releasing the files submissions claim. */
export function createMediaClient(address: string, secret: CallSecret, deadlineMs: number) {
  const client = new ServiceClient(mediaV1.MediaService, address, secret);
  const call = <R>(method: string, request: object) => client.unary<R>(method, request, deadlineMs);
  return {
    reserve: (auth: AuthContext__Output | null, claimId: string, names: string[]) => call<ReserveResponse__Output>('Reserve', { auth, claimId, names }),
    confirm: (claimId: string, names: string[]) => call<ClaimResponse__Output>('Confirm', { claimId, names }),
    release: (claimId: string) => call<ClaimResponse__Output>('Release', { claimId }),
    forget: (names: string[]) => call<ClaimResponse__Output>('Forget', { names }),
    close: () => client.close(),
  };
}

export type MediaClient = ReturnType<typeof createMediaClient>;
