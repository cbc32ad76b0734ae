"""``spades serve``: the table in the browser, saved after every action."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from spades.store import Upgrade, default_url


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
    parser.add_argument("--per-address", type=int, default=None, metavar="N",
                        help="connections one address may hold open at once (default "
                             "50; behind a proxy every client has the proxy's address)")
    parser.add_argument("--head-timeout", type=float, default=None, metavar="SECONDS",
                        help="time a client has to send a request's headers (default 10)")
    account_options(parser)
    parser.set_defaults(func=run)


def account_options(parser: Any) -> None:
    """The flags of accounts: reset emails, the address links start with, trusted proxies."""
    env = os.environ.get
    parser.add_argument("--smtp", default=env("SPADES_SMTP"), metavar="URL",
                        help="send password reset links through this SMTP server, e.g. "
                             "smtp://user:password@mail.example.org:587?from=spades@example.org"
                             " (smtps:// for TLS from the start; env SPADES_SMTP; default: "
                             "write the links to the server's log)")
    parser.add_argument("--public-url", default=env("SPADES_PUBLIC_URL"), metavar="URL",
                        help="the address people open, which reset links start with "
                             "(env SPADES_PUBLIC_URL; default http://HOST:PORT)")
    parser.add_argument("--trusted-proxy", action="append", metavar="ADDRESS",
                        default=[v for v in [env("SPADES_TRUSTED_PROXY")] if v],
                        help="a reverse proxy's address or network (repeat, or separate with "
                             "commas; env SPADES_TRUSTED_PROXY): its X-Forwarded-For and "
                             "X-Forwarded-Proto are believed (the client's address for "
                             "sign-in limits; HTTPS for Secure cookies)")


def account_settings(args: argparse.Namespace, shown: str) -> dict[str, Any] | str:
    """The settings of accounts from the flags, or why they are wrong."""
    from spades.accounts import MailError, smtp_target
    from spades.server.forwarded import parse_trusted

    try:
        trusted = parse_trusted(args.trusted_proxy or [])
    except ValueError as error:
        return f"--trusted-proxy: {error}"
    if args.smtp:
        try:
            smtp_target(args.smtp)
        except MailError as error:
            return str(error)
    public = args.public_url or f"http://{shown}:{args.port}"
    if not public.startswith(("http://", "https://")):
        return "--public-url starts with http:// or https://"
    return {"trusted_proxies": trusted, "smtp_url": args.smtp or None, "public_url": public}


def run(args: argparse.Namespace) -> int:
    from spades.server import Settings, create_app
    from spades.store import Store

    if args.pace < 0 or (args.workers is not None and args.workers < 0):
        print("spades serve: --pace and --workers must not be negative", file=sys.stderr)
        return 2
    if ((args.per_address is not None and args.per_address < 1)
            or (args.head_timeout is not None and args.head_timeout <= 0)):
        print("spades serve: --per-address and --head-timeout must be positive",
              file=sys.stderr)
        return 2
    url = args.db or default_url()
    checked = check_db(url)  # and its tables created, adopted or upgraded
    if isinstance(checked, str):
        print(f"spades serve: {checked}", file=sys.stderr)
        return 2
    host = args.host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    accounts = account_settings(args, shown)
    if isinstance(accounts, str):
        print(f"spades serve: {accounts}", file=sys.stderr)
        return 2
    app = create_app(Settings(db_url=url, pace=args.pace, workers=args.workers, **accounts))
    server = listening(app, args)

    async def announce() -> None:
        while not server.started:  # print the address once it is really listening
            await asyncio.sleep(0.05)
        print(f"Spades is ready: open http://{shown}:{args.port}/ in your browser", flush=True)
        print(f"Games are saved in {Store.describe(url)}. Press Ctrl+C to stop.", flush=True)
        if checked.changed:  # after the address, which comes first
            print(f"The store {checked.describe()}.", flush=True)

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


def check_db(url: str) -> Upgrade | str:
    """Why the store at ``url`` cannot be used, found before serving; else what bringing
    its tables to the newest schema did (created, adopted or upgraded them, or nothing)."""
    import sqlalchemy as sa

    from spades.store import StoreError, upgrade

    try:
        sa.make_url(url)
    except (sa.exc.ArgumentError, ValueError):
        return ("--db is not a database URL (it is not repeated here: it may hold a "
                "password); for example sqlite:///games.db or postgresql+psycopg://user@host/db")
    try:
        return upgrade(url)
    except (StoreError, ValueError, ImportError) as error:
        return str(error)


def listening(app: Any, args: argparse.Namespace) -> Any:
    """The uvicorn server for ``app`` with the limits of the command line."""
    from spades.server.listen import HEAD_TIMEOUT, PER_ADDRESS, Guard, make_server

    guard = Guard(per_address=args.per_address or PER_ADDRESS,
                  head_timeout=args.head_timeout or HEAD_TIMEOUT)
    return make_server(app, args.host, args.port, guard)
