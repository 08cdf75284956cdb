"""The HTTP shell: parse, call one use case, render JSON or problem+json."""

import functools
import hmac
import os
import time
from pathlib import Path

import orjson
from flask import Blueprint, Flask, Response, current_app, request
from flask.json.provider import JSONProvider
from eventsourcing.domain import OriginatorVersionError
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.kernel.errors import DomainError
from domain.kernel.store import MatchStore
from projections.projector import LeaderLock, Projector, start_embedded
from projections.queries import ReadModels
from projections.readstore import open_read_store
from projections.retention import retention_seconds

from . import schemas
from .auth import hash_token
from .bot_pace import BotPace
from .errors import AdminOnly, BadRequest, TokenInvalid, TokenMissing
from .lifecycle import IDLE_SECONDS_DEFAULT, start_clock_thread
from .matches import Arbiter, parse_match_id
from .metrics import register_metrics
from .problems import problem_body, status_of

MAX_BODY_BYTES = 64 * 1024
MAX_NESTING = 32  # levels of arrays and objects in a body; no game's action comes near it
MAX_IMPORT_BYTES = 16 * 1024 * 1024  # a whole exported match
v1 = Blueprint("v1", __name__, url_prefix="/v1")


class OrjsonProvider(JSONProvider):
    def dumps(self, obj, **kwargs) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s, **kwargs):
        return orjson.loads(s)


def problem(status: int, code: str, detail: str, **extra) -> Response:
    return Response(problem_body(status, code, detail, **extra), status=status, mimetype="application/problem+json")


def json_response(body, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status=status, mimetype="application/json")


def arbiter() -> Arbiter:
    return current_app.extensions["arbiter"]


@functools.cache
def schema_of(schema_class: type[schemas.Schema]) -> schemas.Schema:
    """One instance of each request schema for the process: marshmallow's schemas are reusable
    across requests and threads (no state is kept between loads), and building one anew cost
    about a tenth of a move's CPU outside the commit."""
    return schema_class()


def load_body(schema_class: type[schemas.Schema]) -> dict:
    try:
        data = orjson.loads(request.get_data(cache=False))
    except orjson.JSONDecodeError as error:
        raise BadRequest("malformed_json", f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise BadRequest("malformed_json", "the body must be a JSON object")
    if nesting(data) > MAX_NESTING:
        raise BadRequest("too_deep", f"the body nests arrays and objects more than {MAX_NESTING} levels deep")
    return schema_of(schema_class).load(data)


def nesting(value) -> int:
    """How many levels of arrays and objects `value` nests (without recursion of our own)."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, depth = level.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        level.extend((child, depth + 1) for child in children)
    return deepest


def field_errors(messages, path: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as {"seats.0": [...], "options.k.value": [...]}: one flat,
    documented shape whatever the nesting (list indexes and map keys become path segments)."""
    if isinstance(messages, dict):
        flat = {}
        for key, inner in messages.items():
            flat.update(field_errors(inner, f"{path}.{key}" if path else str(key)))
        return flat
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return {path or "_body": messages}
    if isinstance(messages, list):
        return {k: v for m in messages for k, v in field_errors(m, path).items()}
    return {path or "_body": [str(messages)]}


def load_query(schema_class: type[schemas.Schema]) -> dict:
    return schema_of(schema_class).load(request.args.to_dict())


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenInvalid('the Authorization header must be "Bearer <token>"')
    return token.strip()


# -- routes ------------------------------------------------------------------------------

@v1.get("/games")
def list_games():
    return json_response({"games": arbiter().games()})


@v1.get("/games/<game>/catalog")
def game_catalog(game):
    return json_response(arbiter().catalog(game))


@v1.post("/matches")
def create_match():
    body = load_body(schemas.CreateMatchSchema)
    return json_response(arbiter().create_match(body["game"], body["seats"], body["options"], body["entropy"],
                                                body["clock"]), 201)


@v1.get("/lobbies")
def open_lobbies():
    return json_response(arbiter().open_lobbies(**load_query(schemas.LobbyQuerySchema)))


@v1.post("/matches/<match_id>/join")
def join_match(match_id):
    body = load_body(schemas.JoinSchema)
    return json_response(arbiter().join(parse_match_id(match_id), body["name"], body["entropy"], body["seat"]), 201)


@v1.post("/matches/<match_id>/leave")
def leave_match(match_id):
    return json_response(arbiter().leave(parse_match_id(match_id), bearer_token()))


@v1.post("/matches/<match_id>/start")
def start_match(match_id):
    return json_response(arbiter().start_lobby(parse_match_id(match_id), bearer_token()))


@v1.post("/matches/<match_id>/resign")
def resign(match_id):
    mid = parse_match_id(match_id)
    return json_response(arbiter().resign(mid, arbiter().seat_of(mid, bearer_token())), 201)


@v1.post("/matches/<match_id>/abort")
def abort(match_id):
    mid = parse_match_id(match_id)
    return json_response(arbiter().abort(mid, arbiter().seat_of(mid, bearer_token())), 201)


@v1.post("/matches/<match_id>/rematch")
def rematch(match_id):
    mid = parse_match_id(match_id)
    summary, created = arbiter().rematch(mid, arbiter().seat_of(mid, bearer_token()))
    return json_response(summary, 201 if created else 200)


@v1.get("/matches")
def list_matches():
    return json_response(arbiter().list_matches(**load_query(schemas.ListQuerySchema)))


@v1.get("/matches/<match_id>")
def match_summary(match_id):
    return json_response(arbiter().summary(parse_match_id(match_id)))


@v1.get("/matches/<match_id>/board")
def board(match_id):
    mid = parse_match_id(match_id)
    seat = arbiter().seat_of(mid, bearer_token(), required=False)
    return json_response(arbiter().board(mid, seat, **load_query(schemas.BoardQuerySchema)))


@v1.get("/matches/<match_id>/legal-actions")
def legal_actions(match_id):
    mid = parse_match_id(match_id)
    return json_response(arbiter().legal_actions(mid, arbiter().seat_of(mid, bearer_token())))


@v1.post("/matches/<match_id>/actions")
def submit_action(match_id):
    mid = parse_match_id(match_id)
    seat = arbiter().seat_of(mid, bearer_token())
    body = load_body(schemas.SubmitActionSchema)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise BadRequest("bad_idempotency_key", "Idempotency-Key must be 1 to 200 characters")
    result = arbiter().submit_action(mid, seat, body["action"], body["expected_version"], key)
    return json_response(result, 200 if result["replayed"] else 201)


@v1.get("/matches/<match_id>/log")
def match_log(match_id):
    mid = parse_match_id(match_id)
    seat = arbiter().seat_of(mid, bearer_token(), required=False)
    return json_response(arbiter().log(mid, seat, **load_query(schemas.LogQuerySchema)))


@v1.get("/matches/<match_id>/state")
def match_state(match_id):
    mid = parse_match_id(match_id)
    seat = arbiter().seat_of(mid, bearer_token(), required=False)
    return json_response(arbiter().state_at(mid, load_query(schemas.StateQuerySchema)["version"], seat))


def is_admin() -> bool:
    expected = current_app.config.get("ADMIN_TOKEN_HASH")
    token = bearer_token()
    return bool(expected and token and hmac.compare_digest(hash_token(token), expected))


@v1.get("/matches/<match_id>/export")
def export(match_id):
    lines = arbiter().export_lines(parse_match_id(match_id), admin=is_admin())
    return Response(b"".join(lines), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{match_id}.ndjson"'})


@v1.get("/stats/<game>")
def game_stats(game):
    return json_response(arbiter().stats(game, **load_query(schemas.StatsQuerySchema)))


@v1.get("/players/<name>")
def player_record(name):
    return json_response(arbiter().player(name))


@v1.get("/leaderboards/<game>")
def leaderboard(game):
    return json_response(arbiter().leaderboard(game, **load_query(schemas.PageQuerySchema)))


@v1.get("/matches/<match_id>/audit")
def audit_match(match_id):
    return json_response(arbiter().audit(parse_match_id(match_id)))


@v1.post("/imports")
def import_match():
    """An import writes a whole match under an id of the file's choosing: an operator's act."""
    if bearer_token() is None:
        raise TokenMissing("an import needs the admin token: Authorization: Bearer <ARBITER_ADMIN_TOKEN>")
    if not is_admin():
        raise AdminOnly("only the admin token (ARBITER_ADMIN_TOKEN) may import a match")
    request.max_content_length = MAX_IMPORT_BYTES
    return json_response(arbiter().import_match(request.get_data(cache=False).splitlines()), 201)


# -- errors ------------------------------------------------------------------------------

def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(DomainError)
    def domain_error(error: DomainError):
        extra = {"audit": error.report} if getattr(error, "report", None) else {}
        return problem(status_of(error), error.code, error.message, **extra)

    @app.errorhandler(ValidationError)
    def validation_error(error: ValidationError):
        errors = field_errors(error.messages)
        named = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in errors.items())
        return problem(400, "invalid_body", f"the request does not match its schema ({named})", errors=errors)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        code = {413: "body_too_large", 404: "not_found", 405: "method_not_allowed"}.get(error.code, "http_error")
        return problem(error.code or 500, code, error.description or error.name)

    @app.errorhandler(OriginatorVersionError)
    def damaged_stream(error: OriginatorVersionError):
        return problem(500, "store_integrity", "the stored events of this match are not contiguous; "
                       "GET its /audit for the first divergence")

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unhandled error")
        return problem(500, "internal_error", "the server failed; nothing was recorded unless the log shows it")


def create_app(environ=None, store: MatchStore | None = None) -> Flask:
    """The WSGI app. `environ` (default: the process environment) chooses the store."""
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    environ = os.environ if environ is None else environ
    if environ.get("ARBITER_ADMIN_TOKEN"):
        app.config["ADMIN_TOKEN_HASH"] = hash_token(environ["ARBITER_ADMIN_TOKEN"])
    # settings are refused before a store is opened
    bot_pace, retain_ended_seconds = BotPace.from_environ(environ), retention_seconds(environ)
    store = store or MatchStore(environ)
    data_dir = Path(environ.get("ARBITER_DATA_DIR", "./var"))
    read_store = open_read_store(environ, data_dir)
    projector = Projector(store, read_store, retain_ended_seconds=retain_ended_seconds)
    app.extensions["arbiter"] = Arbiter(store, ReadModels(read_store), bot_pace)
    app.extensions["projector"] = projector
    if environ.get("ARBITER_PROJECTOR", "embedded") == "embedded":
        app.extensions["projector_thread"] = start_embedded(projector, LeaderLock(data_dir / "projector.lock"))
    if environ.get("ARBITER_CLOCK", "embedded") == "embedded":
        app.extensions["clock_thread"] = start_clock_thread(
            app.extensions["arbiter"], int(environ.get("ARBITER_IDLE_SECONDS", IDLE_SECONDS_DEFAULT)))
    app.register_blueprint(v1)
    from .web import web  # the replay viewer's pages (plain HTML/JS over this same API)

    app.register_blueprint(web)
    register_error_handlers(app)
    register_metrics(app, store, projector)

    from .openapi import openapi_document

    spec = openapi_document()

    @app.get("/openapi.json")
    def openapi():
        return json_response(spec)

    @app.get("/healthz")
    def healthz():
        started = time.perf_counter()
        store.ping()
        return json_response({"status": "ok", "store": type(next(iter(store.shards.values())).recorder).__name__,
                              "shards": len(store.shards),
                              "store_ms": round((time.perf_counter() - started) * 1000, 3)})

    return app
