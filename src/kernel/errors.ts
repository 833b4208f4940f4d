// The closed set of error codes the service emits, and the one mapping from code to HTTP status.
import { Type } from 'typebox';

export const ERROR_STATUS = {
  invalid_params: 400,
  malformed_request: 400,
  missing_key: 401,
  invalid_key: 401,
  wrong_key: 401,
  plan_required: 402,
  insufficient_credits: 402,
  key_disabled: 403,
  key_too_broad: 403,
  key_limit_reached: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  link_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  data_api_disabled: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** What each code means, for the API description. */
export const ERROR_MEANING: Record<ErrorCode, string> = {
  invalid_params:
    'A parameter failed validation: unknown, empty, repeated, malformed, out of range, or from after to.',
  malformed_request: 'The request is not valid HTTP (method, header, length or URL bytes).',
  missing_key: 'No API key was sent.',
  invalid_key: 'The key is not recognised, or it was revoked.',
  wrong_key: 'The key belongs to another API of this host.',
  plan_required: 'The account has no active plan (or the plan ended).',
  insufficient_credits: "The call costs more credits than remain in the account's current period.",
  key_disabled: "The account's email address is not confirmed yet.",
  key_too_broad: 'Market-data routes take only keys created with market-data-only access.',
  key_limit_reached: "The plan's number of keys is in use; revoke one before creating another.",
  not_found: 'No such route, dataset, symbol, id or contract.',
  method_not_allowed: 'The route exists but not for this HTTP method.',
  request_timeout: 'The request (its headers or its body) did not arrive in time.',
  payload_too_large: 'The request body is larger than the service accepts.',
  unsupported_media_type: 'The request body is not JSON.',
  link_expired: 'The signed download link is past its expiry time; ask for a new one.',
  range_not_satisfiable: 'The Range asked for lies outside the file (its size is in Content-Range).',
  headers_too_large: 'The request headers are larger than the service accepts.',
  rate_limited: 'Too many requests or credits in the current window; see Retry-After.',
  internal_error: 'The service failed; credits or market units charged for the call are given back.',
  data_api_disabled: 'The stored-datasets API is switched off on this deployment.',
  service_unavailable: 'A store the service depends on is unreachable; try again shortly.',
};

/** A refusal or failure with its code: every transport reports it the same way (HTTP status, tool error). */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** When a retry can succeed: HTTP sends it as Retry-After, a tool result says it. */
    readonly retryAfterSeconds: number | null = null,
    /** HTTP headers the refusal carries besides (a 416's Content-Range). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** Whole seconds until a window that resets in `resetMs` milliseconds; at least one. */
export function secondsUntil(resetMs: number): number {
  return Math.max(1, Math.ceil(resetMs / 1000));
}

export const ErrorBody = Type.Object(
  {
    error: Type.Enum(ERROR_CODES, { description: 'Machine-readable error code.' }),
    message: Type.String({ description: 'What went wrong and what to do about it.' }),
    requestId: Type.String({ description: 'Identifier of the request; quote it when asking for help.' }),
  },
  { additionalProperties: false },
);

export interface ErrorPayload {
  error: ErrorCode;
  message: string;
  requestId: string;
}
