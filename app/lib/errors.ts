/**
 * Expected failures with stable codes (STYLE habit 4). They map to the API's
 * `{status, error, message}` shape in one place (app/api/respond.server.ts) and never go to Sentry.
 */
export const ERROR_STATUS = {
  invalid_input: 400,
  invalid_json: 400,
  // A JSON body nested deeper than MAX_JSON_DEPTH (app/lib/json-depth.ts, docs/decisions/039).
  json_too_deep: 400,
  invalid_file: 400,
  unauthorized: 401,
  email_not_verified: 401,
  forbidden: 403,
  account_disabled: 403,
  invalid_signature: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  quota_exceeded: 402,
  // Payments (issue 8): a webhook whose signature does not verify; checkout when Stripe is not configured.
  webhook_signature_invalid: 400,
  payments_unavailable: 503,
  // Scans (issue 17): no worker here has the scan tools (docs/decisions/022).
  scans_unavailable: 503,
  payment_provider_error: 502,
  captcha_required: 400,
  captcha_failed: 400,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what = "Item") => new AppError("not_found", `${what} not found.`);
export const invalidInput = (message: string, details?: unknown) =>
  new AppError("invalid_input", message, details);
export const invalidFile = (message: string) => new AppError("invalid_file", message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
