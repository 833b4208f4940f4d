"""Errors the API answers, one class per code, each carrying the code, the message and the request id."""

from __future__ import annotations

from typing import Dict, Optional, Type


class QuarryError(Exception):
    """An error answer of the API (or a transport failure, code ``unavailable``)."""

    def __init__(self, code: str, message: str, status: int = 0, request_id: Optional[str] = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.request_id = request_id


class AuthenticationError(QuarryError):
    """The key is missing, not recognised, or for the other API."""


class MissingKey(AuthenticationError):
    """No key was sent."""


class InvalidKey(AuthenticationError):
    """The key is not recognised or was revoked."""


class WrongKey(AuthenticationError):
    """The key is for the other API (gds_ for datasets, svc_mcp_ for market data)."""


class PlanRequired(QuarryError):
    """The account has no plan that allows the call."""


class InsufficientCredits(QuarryError):
    """The period's credits do not cover the call."""


class RateLimited(QuarryError):
    """Too many calls or units this minute (the client waits and retries before raising this)."""


class InvalidParams(QuarryError):
    """A parameter was refused; the message names it."""


class Forbidden(QuarryError):
    """The key may not make this call (email not confirmed, access too broad, key limit reached)."""


class NotFound(QuarryError):
    """No such record, route or instrument."""


class InvalidRequest(QuarryError):
    """The request itself was refused (method, media type, size, headers, time)."""


class ServerError(QuarryError):
    """The service failed on its side; credits or units taken for the call were given back."""


class Unavailable(QuarryError):
    """The service could not answer (503, a timeout, a broken connection)."""


BY_CODE: Dict[str, Type[QuarryError]] = {
    "invalid_params": InvalidParams,
    "malformed_request": InvalidRequest,
    "missing_key": MissingKey,
    "invalid_key": InvalidKey,
    "wrong_key": WrongKey,
    "plan_required": PlanRequired,
    "insufficient_credits": InsufficientCredits,
    "key_disabled": Forbidden,
    "key_too_broad": Forbidden,
    "key_limit_reached": Forbidden,
    "not_found": NotFound,
    "method_not_allowed": InvalidRequest,
    "request_timeout": InvalidRequest,
    "link_expired": NotFound,
    "payload_too_large": InvalidRequest,
    "range_not_satisfiable": InvalidRequest,
    "unsupported_media_type": InvalidRequest,
    "headers_too_large": InvalidRequest,
    "rate_limited": RateLimited,
    "internal_error": ServerError,
    "data_api_disabled": Unavailable,
    "service_unavailable": Unavailable,
    "unavailable": Unavailable,
}


def error_for(code: str, message: str, status: int, request_id: Optional[str]) -> QuarryError:
    """The exception of an error code (QuarryError itself for a code this client does not know)."""
    return BY_CODE.get(code, QuarryError)(code, message, status, request_id)
