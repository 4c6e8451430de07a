import * as grpc from '@grpc/grpc-js';

/** A method's labels with each code's, made once per code rather than once per call. */
export function labelsByCode<L extends object>(labels: L): (code: grpc.status) => L & { grpc_code: string } {
  const byCode = new Map<grpc.status, L & { grpc_code: string }>();
  return (code) => {
    let withCode = byCode.get(code);
    if (!withCode) byCode.set(code, (withCode = { ...labels, grpc_code: grpc.status[code] }));
    return withCode;
  };
}
