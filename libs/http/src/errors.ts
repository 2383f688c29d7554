/**
 * Typed errors that render as GitLab's bodies. Domain code throws these; one middleware renders them.
 * Shapes: {"message": "404 Project Not Found"}, {"message": {"field": ["..."]}}, {"error": "title is missing"}.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body ? JSON.stringify(body) : String(body));
    this.name = 'HttpError';
  }
}

/** 404 `{"message":"404 <Resource> Not Found"}`; without a resource `404 Not Found`. */
export class NotFoundError extends HttpError {
  constructor(resource?: string) {
    super(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });
  }
}

/** GitLab's rescue of ActiveRecord::RecordNotFound (a `find`/`find_by!` miss): `404 {"message":"404 Not found"}`, lower-case "found". */
export class RecordNotFoundError extends HttpError {
  constructor() {
    super(404, { message: '404 Not found' });
  }
}

/** 403 `{"message":"403 Forbidden"}` or `403 Forbidden - <reason>`. */
export class ForbiddenError extends HttpError {
  constructor(reason?: string) {
    super(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });
  }
}

/** 401 `{"message":"401 Unauthorized"}`. */
export class UnauthorizedError extends HttpError {
  constructor(reason?: string, headers: Record<string, string> = {}) {
    super(401, { message: reason ? `401 Unauthorized - ${reason}` : '401 Unauthorized' }, headers);
  }
}

/** 400 `{"message":"400 Bad request - <reason>"}`. */
export class BadRequestError extends HttpError {
  constructor(reason?: string) {
    super(400, { message: reason ? `400 Bad request - ${reason}` : '400 Bad request' });
  }
}

/** 400 `{"error":"<message>"}`: a parameter failed validation (Grape's shape). */
export class ParamError extends HttpError {
  constructor(message: string) {
    super(400, { error: message });
  }
}

/** 409 with the given message (default `409 Conflict`). */
export class ConflictError extends HttpError {
  constructor(message = '409 Conflict') {
    super(409, { message });
  }
}

/** 422 with the given message (default `422 Unprocessable Entity`); a string or a structured hash. */
export class UnprocessableError extends HttpError {
  constructor(message: unknown = '422 Unprocessable Entity') {
    super(422, { message });
  }
}

/** Model validation failure: `{"message":{"field":["msg"]}}`, 400 unless told otherwise. */
export class ValidationError extends HttpError {
  constructor(
    readonly fieldErrors: Record<string, string[]>,
    status = 400,
  ) {
    super(status, { message: fieldErrors });
  }
}

/** 413 `{"message":"413 Request Entity Too Large"}`. */
export class TooLargeError extends HttpError {
  constructor() {
    super(413, { message: '413 Request Entity Too Large' });
  }
}

/** 304 with an empty body. */
export class NotModifiedError extends HttpError {
  constructor() {
    super(304, '');
  }
}

/** 405 `{"message":"405 Method Not Allowed"}` or a given message. */
export class MethodNotAllowedError extends HttpError {
  constructor(message = '405 Method Not Allowed') {
    super(405, { message });
  }
}

/** 429 with GitLab's application rate-limit body and Retry-After. */
export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds = 60) {
    super(429, { message: { error: 'This endpoint has been requested too many times. Try again later.' } }, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 503 `{"message":"503 Service Unavailable"}`, with `Retry-After` when given. */
export class ServiceUnavailableError extends HttpError {
  constructor(retryAfterSeconds?: number) {
    super(503, { message: '503 Service Unavailable' }, retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** Turns an unknown error into an HttpError with one of `translators`, or null (a 500). */
export type ErrorTranslator = (err: unknown) => HttpError | undefined;
