"""The replay viewer: HTML pages and their scripts, served by the API's own Flask app.

The pages read matches only through the public JSON API (`/v1/...`), in the browser, with
the seat token the user typed. Two things are served here besides files:

- `/viewer/renderers/<game>.js`: a game's own renderer, `domain/games/<game>/viewer.js`,
  found next to the game's package (a game without one is drawn by the generic renderer);
- `/matches/<id>/views?version=N&seat=S`: once a match is over (everything is public and
  `GET /v1/matches/{id}/state?version=N` returns the whole state), the view that seat had at
  version N, computed with the match's pinned ruleset from that same public state. It answers
  409 while the match runs: then the page asks the API with the user's token, and nothing
  here can show more than the API does.

Contract for game renderers: service/web/README.md.
"""

from pathlib import Path

import orjson
from flask import Blueprint, Response, abort, current_app, render_template, request, send_file

import domain.games  # noqa: F401  (registers every ruleset)
from domain.kernel import ruleset as rulesets
from domain.kernel.errors import MatchNotFound

web = Blueprint("web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/viewer/static")

RENDERER_FILE = "viewer.js"
OVER = ("ended", "abandoned")


def renderer_paths() -> dict[str, Path]:
    """Each registered game's browser renderer, where its package folder has one."""
    import sys

    found = {}
    for ruleset in rulesets.all_latest():
        module = sys.modules.get(_package_of(ruleset))
        folder = Path(module.__file__).parent if module and getattr(module, "__file__", None) else None
        if folder and (folder / RENDERER_FILE).is_file():
            found[ruleset.name] = folder / RENDERER_FILE
    return found


def _package_of(ruleset) -> str:
    """The package that registered a ruleset: the module of its `view` function, up to the game folder."""
    module = getattr(ruleset.view, "__module__", "") or ""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["domain", "games"]:
        return ".".join(parts[:3])
    return f"domain.games.{ruleset.name}"


def _json(body, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status=status, mimetype="application/json")


def _problem(status: int, code: str, detail: str) -> Response:
    body = {"type": f"urn:arbiter:problem:{code}", "title": "Viewer", "status": status, "detail": detail,
            "code": code}
    return Response(orjson.dumps(body), status=status, mimetype="application/problem+json")


def _page(template: str, **context) -> Response:
    response = Response(render_template(template, renderers=sorted(renderer_paths()), **context))
    # The pages load only their own scripts and talk only to this origin.
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@web.get("/")
def index():
    return _page("list.html")


@web.get("/play")
def play():
    """The lobby page: open lobbies, and a form to open one for any game."""
    return _page("play.html")


@web.get("/matches/<match_id>")
def match_page(match_id):
    from service.matches import parse_match_id

    try:
        mid = parse_match_id(match_id)
    except MatchNotFound:
        abort(404)
    return _page("match.html", match_id=str(mid))


@web.get("/viewer/renderers/<game>.js")
def renderer(game):
    path = renderer_paths().get(game)
    if path is None:
        abort(404)
    response = send_file(path, mimetype="text/javascript", max_age=0)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@web.get("/matches/<match_id>/views")
def finished_view(match_id):
    """A seat's (or the spectator's) view at a version of a match that is over; see the module doc."""
    from service.matches import parse_match_id

    arbiter = current_app.extensions["arbiter"]
    try:
        mid = parse_match_id(match_id)
        version = int(request.args.get("version", ""))
        if version < 1:
            raise ValueError
        seat_arg = request.args.get("seat", "")
        seat = None if seat_arg in ("", "spectator") else int(seat_arg)
    except MatchNotFound:
        return _problem(404, "match_not_found", f"no match {match_id!r}")
    except ValueError:
        return _problem(400, "bad_query", "version must be a number; seat a seat number or 'spectator'")
    summary = arbiter.summary(mid)
    if summary["status"] == "open":
        return _problem(409, "match_open", "the match is waiting for players: it has no state yet")
    if summary["status"] not in OVER:
        return _problem(409, "match_running", "while the match runs, read GET /v1/matches/{id}/state with "
                                              "your seat token: views of other seats are hidden")
    if seat is not None and not 0 <= seat < len(summary["seats"]):
        return _problem(400, "bad_query", f"seat {seat} is not in this match")
    public = arbiter.state_at(mid, version, None)  # the whole state: public once the match is over
    ruleset = rulesets.pinned(summary["game"], summary["ruleset_version"])
    return _json({**public, "seat": seat, "state": ruleset.view(public["state"], seat)})
