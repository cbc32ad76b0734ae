"""``spades serve``: the table in the browser, saved after every action."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from spades.store import default_url


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="play in the browser: start the web table",
        description="Start the web table. Games are saved after every action in a SQLite "
                    "file in your data folder, or in the database --db names.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="SQLAlchemy URL of the store, e.g. sqlite:///games.db or "
                             "postgresql+psycopg://user@host/db (default: "
                             f"{default_url()})")
    parser.add_argument("--pace", type=float, default=0.6, metavar="SECONDS",
                        help="least time between two computer players' moves (default 0.6)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes for the computer players (default: one per core)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from spades.server import Settings, create_app
    from spades.store import Store, StoreError

    if args.pace < 0 or (args.workers is not None and args.workers < 0):
        print("spades serve: --pace and --workers must not be negative", file=sys.stderr)
        return 2
    url = args.db or default_url()
    try:  # fail early and clearly on a bad --db
        Store(url).close()
    except (StoreError, ValueError, ImportError) as error:
        print(f"spades serve: {error}", file=sys.stderr)
        return 2
    app = create_app(Settings(db_url=url, pace=args.pace, workers=args.workers))
    host = args.host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=args.port,
                                           log_level="warning", ws_max_size=64 * 1024))

    async def announce() -> None:
        while not server.started:  # print the address once it is really listening
            await asyncio.sleep(0.05)
        print(f"Spades is ready: open http://{shown}:{args.port}/ in your browser", flush=True)
        print(f"Games are saved in {Store.describe(url)}. Press Ctrl+C to stop.", flush=True)

    async def serve() -> None:
        told = asyncio.create_task(announce())
        try:
            await server.serve()
        finally:
            told.cancel()

    try:
        asyncio.run(serve())
    except SystemExit as exit_:  # uvicorn could not listen (the port is taken, say)
        print(f"spades serve: could not listen on {host}:{args.port}", file=sys.stderr)
        return int(exit_.code or 1)
    return 0
