"""The service's own refusals (the domain's are in domain/kernel/errors.py); api.py maps
each to one HTTP status."""

from domain.kernel.errors import DomainError


class BadRequest(DomainError):
    """A request the API cannot read (its `code` says how: malformed_json, too_deep, ...)."""

    code = "bad_request"

    def __init__(self, code: str, detail: str):
        super().__init__(detail, code)


class TokenMissing(DomainError):
    code = "token_missing"


class TokenInvalid(DomainError):
    code = "token_invalid"


class ExportRefused(DomainError):
    code = "match_running"


class VersionNotFound(DomainError):
    code = "version_not_found"


class ReadModelsUnavailable(DomainError):
    code = "read_models_unavailable"


class ImportRefused(DomainError):
    code = "import_refused"

    def __init__(self, message: str, report: dict | None = None):
        super().__init__(message)
        self.report = report


class MatchExists(DomainError):
    code = "match_exists"


class HostOnly(DomainError):
    code = "host_only"


class AdminOnly(DomainError):
    code = "admin_only"


class NotEnoughPlayers(DomainError):
    code = "not_enough_players"
