"""Domain errors. The service maps each class to one HTTP status in one place."""


class DomainError(Exception):
    """Base of every error the domain raises on purpose; `code` is for machines."""

    code = "domain_error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class IllegalAction(DomainError):
    """The action breaks a rule; `code` names the rule, `message` explains it."""

    code = "illegal_action"

    def __init__(self, code: str, message: str):
        super().__init__(message, code)


class MatchNotFound(DomainError):
    code = "match_not_found"


class MatchOver(DomainError):
    code = "match_over"


class VersionConflict(DomainError):
    code = "version_conflict"


class IdempotencyKeyReused(DomainError):
    code = "idempotency_key_reused"


class UnknownRuleset(DomainError):
    code = "unknown_ruleset"


class InvalidSetup(DomainError):
    """Bad game, seat list or options at match creation."""

    code = "invalid_setup"
