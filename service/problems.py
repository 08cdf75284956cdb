"""Errors as RFC 9457 problem+json: one map from error class to HTTP status, one body shape,
for the Flask app (api.py) and the live streams (live.py) alike."""

import orjson

from domain.kernel.errors import (DomainError, IdempotencyKeyReused, IllegalAction, InvalidSetup, MatchNotFound,
                                  MatchOver, UnknownRuleset, VersionConflict)
from domain.kernel.lobby import LobbyClosed, SeatUnavailable

from .errors import (AdminOnly, BadRequest, ExportRefused, HostOnly, ImportRefused, MatchExists, NotEnoughPlayers,
                     ReadModelsUnavailable, TokenInvalid, TokenMissing, VersionNotFound)

STATUS_OF = {
    BadRequest: 400,
    MatchNotFound: 404, VersionNotFound: 404, UnknownRuleset: 422, InvalidSetup: 422,
    TokenMissing: 401, TokenInvalid: 403,
    VersionConflict: 409, MatchOver: 409, ExportRefused: 409, MatchExists: 409, ReadModelsUnavailable: 503,
    IllegalAction: 422, IdempotencyKeyReused: 422, ImportRefused: 422,
    HostOnly: 403, AdminOnly: 403, SeatUnavailable: 409, LobbyClosed: 409, NotEnoughPlayers: 409,
}
TITLES = {400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found", 405: "Method not allowed",
          409: "Conflict", 413: "Payload too large", 414: "URI too long", 422: "Unprocessable content",
          429: "Too many requests", 431: "Request header fields too large", 500: "Internal error",
          503: "Service unavailable"}


def status_of(error: DomainError) -> int:
    return STATUS_OF.get(type(error), 400)


def problem_body(status: int, code: str, detail: str, **extra) -> bytes:
    return orjson.dumps({"type": f"urn:arbiter:problem:{code}", "title": TITLES.get(status, "Error"),
                         "status": status, "detail": detail, "code": code, **extra})
