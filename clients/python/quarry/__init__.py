"""Quarry's Python client: `quarry.Client(key).bdh(["AAPL", "BARC LN Equity"], ["PX_LAST"])` and the stored
datasets, as pandas DataFrames when pandas is installed."""

from .client import Client
from .errors import (
    AuthenticationError,
    Forbidden,
    InsufficientCredits,
    InvalidKey,
    InvalidParams,
    InvalidRequest,
    MissingKey,
    NotFound,
    PlanRequired,
    QuarryError,
    RateLimited,
    ServerError,
    Unavailable,
    WrongKey,
)
from .transport import LastResponse

__all__ = [
    "AuthenticationError",
    "Client",
    "Forbidden",
    "InsufficientCredits",
    "InvalidKey",
    "InvalidParams",
    "InvalidRequest",
    "LastResponse",
    "MissingKey",
    "NotFound",
    "PlanRequired",
    "QuarryError",
    "RateLimited",
    "ServerError",
    "Unavailable",
    "WrongKey",
]
