// How every error is answered: one body (code, message, request id) and one status per code, for errors of
// routes and hooks, of the router, and of Node's HTTP parser before a request exists.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { newRequestId } from '../accounts/key-text.js';
import {
  AppError,
  ERROR_MEANING,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorPayload,
} from '../kernel/errors.js';
import { describeError } from '../kernel/validation.js';

/**
 * What Node's HTTP parser refuses before a request exists (a timeout, headers too large, a malformed line or
 * length): answered in the house format with a request id of our own, then the connection is closed. Neither
 * API's key can be read yet, so both metering headers say that nothing was taken.
 */
export function clientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'request_timeout'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'headers_too_large'
        : 'malformed_request';
  const requestId = newRequestId();
  const body = JSON.stringify({
    error: code,
    message: ERROR_MEANING[code],
    requestId,
  } satisfies ErrorPayload);
  if (socket.writable) {
    const status = ERROR_STATUS[code];
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n` +
        `X-Credits-Cost: 0\r\nX-Service-Units: 0\r\nCache-Control: private\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function sendError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const { code, message, headers } = classify(error);
  if (code === 'internal_error' || code === 'service_unavailable') {
    request.log.error({ err: error, reqId: request.id }, 'request failed');
  }
  const body: ErrorPayload = { error: code, message, requestId: request.id };
  return reply.code(ERROR_STATUS[code]).header('x-request-id', request.id).headers(headers).send(body);
}

function classify(error: FastifyError | AppError): {
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
} {
  if (error instanceof AppError) {
    const headers: Record<string, string> =
      error.retryAfterSeconds === null
        ? { ...error.headers }
        : { ...error.headers, 'retry-after': String(error.retryAfterSeconds) };
    return { code: error.code, message: error.message, headers };
  }
  if (error.validation) {
    const first = error.validation[0];
    const where = error.validationContext === 'body' ? 'field' : 'parameter';
    return {
      code: 'invalid_params',
      message: first ? describeError(first, where) : 'invalid request',
      headers: {},
    };
  }
  const status = error.statusCode ?? 500;
  if (status === 413)
    return { code: 'payload_too_large', message: 'The request body is too large.', headers: {} };
  if (status === 415)
    return { code: 'unsupported_media_type', message: 'Send the body as application/json.', headers: {} };
  if (status === 404) return { code: 'not_found', message: 'Not found.', headers: {} };
  if (status >= 400 && status < 500) return { code: 'invalid_params', message: error.message, headers: {} };
  if (isUnavailable(error)) {
    return {
      code: 'service_unavailable',
      message: 'A backing store is unreachable; try again shortly.',
      headers: { 'retry-after': '1' },
    };
  }
  return {
    code: 'internal_error',
    message: 'The request failed on our side; any credits or units charged were given back.',
    headers: {},
  };
}

function isUnavailable(error: { code?: string }): boolean {
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'SQLITE_BUSY', '57P01', '57P03'].includes(
    error.code ?? '',
  );
}
