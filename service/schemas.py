"""Request and response shapes. Unknown fields are refused (marshmallow's RAISE)."""

from marshmallow import Schema, fields, validate

# Seqs, versions and cursors are far below this; anything above is refused here, before a
# store is asked (SQLite cannot even compare with a number past 64 bits).
LARGEST_SEQ = 2**53 - 1


def seq_range(minimum: int) -> validate.Range:
    return validate.Range(min=minimum, max=LARGEST_SEQ)


class CreateMatchSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                        validate=validate.Length(min=1, max=16))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    entropy = fields.Dict(keys=fields.String(), values=fields.String(validate=validate.Length(max=256)),
                          load_default=dict)


class SubmitActionSchema(Schema):
    action = fields.Dict(keys=fields.String(), required=True)
    expected_version = fields.Integer(strict=True, validate=seq_range(1), load_default=None)


class LogQuerySchema(Schema):
    since = fields.Integer(validate=seq_range(0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=1000), load_default=100)
    min_version = fields.Integer(validate=seq_range(1), load_default=None)


class BoardQuerySchema(Schema):
    min_version = fields.Integer(validate=seq_range(1), load_default=None)


class StreamQuerySchema(Schema):
    since = fields.Integer(validate=seq_range(0), load_default=0)


class StateQuerySchema(Schema):
    version = fields.Integer(required=True, validate=seq_range(1))


class ListQuerySchema(Schema):
    game = fields.String(load_default=None)
    status = fields.String(validate=validate.OneOf(["running", "ended", "abandoned"]), load_default=None)
    player = fields.String(load_default=None)
    created_after = fields.AwareDateTime(load_default=None)
    created_before = fields.AwareDateTime(load_default=None)
    cursor = fields.Integer(validate=seq_range(0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class SeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String()


class CreatedMatchSchema(Schema):
    match_id = fields.UUID()
    game = fields.String()
    ruleset_version = fields.String()
    version = fields.Integer()
    commitment = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))


class SeatNameSchema(Schema):
    seat = fields.Integer()
    name = fields.String()


class SummarySchema(Schema):
    match_id = fields.UUID()
    game = fields.String()
    ruleset_version = fields.String()
    seats = fields.List(fields.Nested(SeatNameSchema))
    created_at = fields.String()
    status = fields.String(validate=validate.OneOf(["running", "ended", "abandoned"]))
    version = fields.Integer()
    to_act = fields.List(fields.Integer())
    outcome = fields.Dict(allow_none=True)
    commitment = fields.String()
    seed = fields.String(allow_none=True)


class LegalActionsSchema(Schema):
    version = fields.Integer()
    seat = fields.Integer()
    to_act = fields.List(fields.Integer())
    actions = fields.List(fields.Dict())


class ActionResultSchema(Schema):
    match_id = fields.UUID()
    seq = fields.Integer()
    version = fields.Integer()
    status = fields.String()
    facts = fields.List(fields.Dict())
    replayed = fields.Boolean()


class ProblemSchema(Schema):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "stable, for machines"})
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                         metadata={"description": "invalid_body: messages by field path (seats.0, entropy.ann.value)"})
    audit = fields.Dict(metadata={"description": "import_refused, store_integrity: the audit report"})


class StreamEventSchema(Schema):
    """One Server-Sent Event: id is the event's seq, event its type, data the redacted record as JSON."""
    id = fields.String()
    event = fields.String()
    data = fields.String()
