"""The floor: bare Flask, a marshmallow schema and one SQLite insert per request (WAL, as the store),
served as Arbiter is (uvicorn, Flask on a2wsgi's threads: service/asgi.py), so the ratio
measures Arbiter's own work."""

import os
import sqlite3
import threading

import orjson
from a2wsgi import WSGIMiddleware
from flask import Flask, Response, request
from marshmallow import Schema, fields


def database_path(data_dir: str) -> str:
    return os.path.join(data_dir, "baseline.sqlite")


DB = database_path(os.environ.get("ARBITER_DATA_DIR", "./var"))


class MoveSchema(Schema):
    action = fields.Dict(required=True)
    expected_version = fields.Integer(load_default=None)


app = Flask(__name__)
schema = MoveSchema()
local = threading.local()


def create_database(data_dir: str) -> None:
    """The table, in WAL mode (kept by the file), made once before the workers start: two
    workers' first requests switching the journal mode together got "database is locked",
    which killed a client thread and lowered the floor."""
    with sqlite3.connect(database_path(data_dir), isolation_level=None) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, body BLOB)")


def connection():
    if not hasattr(local, "conn"):
        local.conn = sqlite3.connect(DB, isolation_level=None, check_same_thread=False, timeout=10)
    return local.conn


@app.post("/moves")
def move():
    body = schema.load(orjson.loads(request.get_data()))
    connection().execute("INSERT INTO moves (body) VALUES (?)", (orjson.dumps(body),))
    return Response(b'{"ok":true}', status=201, mimetype="application/json")


asgi = WSGIMiddleware(app, workers=8)
