"""Request and response shapes. Unknown fields are refused (marshmallow's RAISE)."""

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

# Seqs, versions and cursors are far below this; anything above is refused here, before a
# store is asked (SQLite cannot even compare with a number past 64 bits).
LARGEST_SEQ = 2**53 - 1


def seq_range(minimum: int) -> validate.Range:
    return validate.Range(min=minimum, max=LARGEST_SEQ)


NAME = validate.Length(min=1, max=64)


class SeatRequestField(fields.Field):
    """A seat of the create body: "ann", {"name": "ann"}, {"open": true} or {"bot": "greedy"}."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            NAME(value)
            return value
        if isinstance(value, dict) and len(value) == 1:
            (key, inner), = value.items()
            if key == "open" and inner is True:
                return {}
            if key in ("name", "bot") and isinstance(inner, str):
                NAME(inner)
                return {key: inner}
        raise ValidationError('a seat is a name, {"name": "..."}, {"open": true} or {"bot": "<kind>"}')


class SeatsField(fields.Field):
    """A list of seat requests, or a number of open seats."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool):
            if not 1 <= value <= 16:
                raise ValidationError("a number of open seats must be from 1 to 16")
            return value
        if not isinstance(value, list) or not 1 <= len(value) <= 16:
            raise ValidationError("seats must be a list of 1 to 16 seats, or a number of open seats")
        return fields.List(SeatRequestField()).deserialize(value)


class ClockSchema(Schema):
    base_seconds = fields.Integer(strict=True)
    increment_seconds = fields.Integer(strict=True)
    move_seconds = fields.Integer(strict=True)
    move_days = fields.Integer(strict=True)
    on_timeout = fields.String(validate=validate.OneOf(["loss", "elimination", "default_move"]))


class CreateMatchSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = SeatsField(required=True, metadata={
        "description": 'names ("ann" or {"name": "ann"}), open seats ({"open": true}) and server bots '
                       '({"bot": "greedy"}); or a number of open seats',
        "oneOf": [{"type": "integer", "minimum": 1, "maximum": 16},
                  {"type": "array", "minItems": 1, "maxItems": 16, "items": {"oneOf": [
                      {"type": "string", "minLength": 1, "maxLength": 64},
                      {"type": "object", "additionalProperties": False, "required": ["name"],
                       "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 64}}},
                      {"type": "object", "additionalProperties": False, "required": ["open"],
                       "properties": {"open": {"type": "boolean", "enum": [True]}}},
                      {"type": "object", "additionalProperties": False, "required": ["bot"],
                       "properties": {"bot": {"type": "string", "minLength": 1, "maxLength": 64}}}]}}]})
    clock = fields.Nested(ClockSchema, load_default=None)
    options = fields.Dict(keys=fields.String(), load_default=dict)
    entropy = fields.Dict(keys=fields.String(), values=fields.String(validate=validate.Length(max=256)),
                          load_default=dict)


class JoinSchema(Schema):
    name = fields.String(required=True, validate=NAME)
    entropy = fields.String(validate=validate.Length(max=256), load_default=None)
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=15), load_default=None)


class StatsQuerySchema(Schema):
    simulated = fields.String(validate=validate.OneOf(["exclude", "include", "only"]), load_default="exclude",
                              metadata={"description": "matches of `arbiter simulate`: left out (default), "
                                                       "counted with the rest, or alone"})


class PageQuerySchema(Schema):
    cursor = fields.Integer(validate=seq_range(0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class LobbyQuerySchema(Schema):
    game = fields.String(load_default=None)
    cursor = fields.Integer(validate=seq_range(0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class SubmitActionSchema(Schema):
    action = fields.Dict(required=True)  # a JSON object's keys are strings already
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
    status = fields.String(validate=validate.OneOf(["running", "ended", "abandoned"]), load_default=None,
                           metadata={"description": "open matches (lobbies) are listed by GET /v1/lobbies"})
    player = fields.String(load_default=None)
    created_after = fields.AwareDateTime(load_default=None)
    created_before = fields.AwareDateTime(load_default=None)
    cursor = fields.Integer(validate=seq_range(0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


STATUSES = ["open", "running", "ended", "abandoned"]


class SeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True, metadata={"description": "null while the seat is open"})
    token = fields.String(metadata={"description": "the seat's secret; only for seats named at creation"})
    open = fields.Boolean()
    bot = fields.String(metadata={"description": "the kind of bot the server plays this seat with"})


class CreatedMatchSchema(Schema):
    match_id = fields.UUID()
    game = fields.String()
    ruleset_version = fields.String()
    status = fields.String(validate=validate.OneOf(["open", "running"]))
    version = fields.Integer()
    commitment = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    host_token = fields.String(metadata={"description": "with open seats: starts the match early (POST .../start)"})


class SeatNameSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    open = fields.Boolean()
    bot = fields.String()


class SummarySchema(Schema):
    match_id = fields.UUID()
    game = fields.String()
    ruleset_version = fields.String()
    seats = fields.List(fields.Nested(SeatNameSchema))
    created_at = fields.String()
    status = fields.String(validate=validate.OneOf(STATUSES))
    version = fields.Integer()
    to_act = fields.List(fields.Integer())
    outcome = fields.Dict(allow_none=True)
    commitment = fields.String()
    seed = fields.String(allow_none=True)
    options = fields.Dict(metadata={"description": "an open lobby's options"})
    open_seats = fields.List(fields.Integer(), metadata={"description": "an open lobby's open seats"})
    clock = fields.Dict(allow_none=True, metadata={"description": "time control and each seat's time left"})
    bots = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "seat -> bot kind"})
    left = fields.Dict(keys=fields.String(), values=fields.String(),
                       metadata={"description": "seat -> resigned | timed_out"})
    rematch_of = fields.String()
    seq = fields.Integer(metadata={"description": "in a resign or abort answer: the seq it was recorded at"})


class JoinedSchema(Schema):
    match_id = fields.UUID()
    seat = fields.Integer()
    name = fields.String()
    token = fields.String()
    status = fields.String(validate=validate.OneOf(["open", "running"]))


class LegalActionsSchema(Schema):
    version = fields.Integer()
    seat = fields.Integer()
    to_act = fields.List(fields.Integer())
    actions = fields.List(fields.Dict())
    words = fields.List(fields.String(allow_none=True), metadata={
        "description": "one text per listed action, in the same order: what it does, in plain English "
                       "(beside the actions, never inside them: each action posts back unchanged)"})


class CatalogEntrySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    text = fields.String(required=True, metadata={"description": "rules text"})

    class Meta:
        unknown = INCLUDE


class CatalogSchema(Schema):
    """A game's cards, tiles, Heroes... with their details (cost, stats, rules text; a tile's
    connections per rotation), from the game's data files."""
    game = fields.String()
    version = fields.String()
    entries = fields.List(fields.Nested(CatalogEntrySchema))


class RecordWordsSchema(Schema):
    """A log or stream record in words for its reader, beside its `data`: a headline and one
    text per fact (null where a fact is bookkeeping), from the facts as that reader may read them."""
    text = fields.String()
    facts = fields.List(fields.String(allow_none=True))


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
