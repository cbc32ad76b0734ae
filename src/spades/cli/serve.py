"""``spades serve``: the table in the browser, saved after every action."""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import os
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from spades.store import Upgrade, default_url

from .limit_flags import LIMIT_FLAGS, add_limit_flags, limit_settings
from .processes import serve_one, supervise

#: The environment variable beside each flag of ``spades serve``; a flag given wins.
ENVIRONMENT = {
    "host": "SPADES_HOST",
    "port": "SPADES_PORT",
    "db": "SPADES_DB",
    "pace": "SPADES_PACE",
    "workers": "SPADES_WORKERS",
    "processes": "SPADES_PROCESSES",
    "per_address": "SPADES_PER_ADDRESS",
    "head_timeout": "SPADES_HEAD_TIMEOUT",
    "refusals": "SPADES_REFUSALS_PER_SECOND",
    "allowed_host": "SPADES_ALLOWED_HOSTS",
    "trusted_proxy": "SPADES_TRUSTED_PROXY",
    "smtp": "SPADES_SMTP",
    "public_url": "SPADES_PUBLIC_URL",
    **{f.dest: f.variable for f in LIMIT_FLAGS},  # the limits of issue 37 (limit_flags.py)
    "invite_limit": "SPADES_INVITE_LIMIT",
    "grace": "SPADES_GRACE",
    "redis": "SPADES_REDIS",
}
DEFAULTS: dict[str, Any] = {"host": "127.0.0.1", "port": 8000, "pace": 0.6, "grace": 30.0,
                            "allowed_host": [], "trusted_proxy": [], "processes": 1}


def names(value: str) -> list[str]:
    """A comma-separated list (``--allowed-host a,b`` or ``SPADES_ALLOWED_HOSTS=a,b``)."""
    return [part.strip() for part in value.split(",") if part.strip()]


def whole(value: str) -> int:
    return int(value)


@dataclass(frozen=True)
class Flag:
    name: str
    kind: Callable[[str], Any]
    meaning: str  # what a bad value should be, for the message


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="play in the browser: start the web table",
        description="Start the web table. Games are saved after every action in a SQLite "
                    "file in your data folder, or in the database --db names. Each option "
                    "can also be set by the environment variable in brackets (a flag given "
                    "wins); docs/self-hosting.md explains running it for others.")

    def option(flag: str, dest: str, text: str, **kwargs: Any) -> None:
        parser.add_argument(flag, dest=dest, default=None,
                            help=f"{text} [{ENVIRONMENT[dest]}]", **kwargs)

    option("--host", "host", "address to listen on (default 127.0.0.1: this computer only); "
           "a name or address other than 0.0.0.0 is also a name the server answers to")
    option("--port", "port", "port (default 8000)", type=int)
    option("--db", "db", "SQLAlchemy URL of the store, e.g. sqlite:///games.db or "
           f"postgresql+psycopg://user@host/db (default: {default_url()})", metavar="URL")
    option("--pace", "pace", "least time between two computer players' moves (default 0.6)",
           type=float, metavar="SECONDS")
    option("--workers", "workers", "thinking processes for the computer players, for each "
           "server process (default: the cores shared out among the server processes; at "
           "least one for quick and one for deep decisions)", type=int)
    option("--processes", "processes", "server processes on this port (default 1); more "
           "than one needs --db postgresql+psycopg://... and --redis", type=int, metavar="N")
    option("--per-address", "per_address", "connections one address may hold open at once "
           "(default 50; behind a proxy every client has the proxy's address)",
           type=int, metavar="N")
    option("--head-timeout", "head_timeout",
           "time a client has to send a request's headers (default 10)",
           type=float, metavar="SECONDS")
    option("--refusals-per-second", "refusals", "refused requests (a head too big or too "
           "slow, a body too big, too many connections) one address gets answered in a "
           "second; past it, its new connections are dropped unread for the rest of that "
           "second (default 20; 0: no cap; behind a proxy every client has the proxy's "
           "address)", type=int, metavar="N")
    option("--allowed-host", "allowed_host", "a host name the server answers to besides "
           "127.0.0.1, localhost and [::1], e.g. the name of this computer on your network "
           "or behind your proxy (repeat it, or separate names with commas)",
           action="append", type=names, metavar="NAME")
    option("--trusted-proxy", "trusted_proxy", "the address of a reverse proxy whose "
           "X-Forwarded-For and X-Forwarded-Proto are believed (an IP address or network; "
           "repeat it, or separate them with commas); without it they are ignored",
           action="append", type=names, metavar="ADDRESS")
    option("--smtp", "smtp", "send password reset links through this SMTP server, e.g. "
           "smtp://user:password@mail.example.org:587?from=spades@example.org (smtps:// for "
           "TLS from the start; default: write the links to the server's log)", metavar="URL")
    option("--public-url", "public_url", "the address people open, which reset links start "
           "with (default http://HOST:PORT)", metavar="URL")
    add_limit_flags(parser)
    option("--invite-limit", "invite_limit", "wrong invite or watch codes one address may "
           "try a minute (default 20)", type=int, metavar="N")
    option("--grace", "grace", "how long a seat at a table for friends is held after its "
           "person's connection is lost (default 30)", type=float, metavar="SECONDS")
    option("--redis", "redis", "Redis URL, e.g. redis://127.0.0.1:6379/0, for what the "
           "server's processes share (tickets, limits, news of each table); default: "
           "none, all in this process", metavar="URL")
    parser.set_defaults(func=run)


FLAGS = {
    "host": Flag("--host", str, "an address or host name"),
    "port": Flag("--port", whole, "a whole number"),
    "db": Flag("--db", str, "a database URL"),
    "pace": Flag("--pace", float, "a number of seconds"),
    "workers": Flag("--workers", whole, "a whole number"),
    "processes": Flag("--processes", whole, "a whole number"),
    "per_address": Flag("--per-address", whole, "a whole number"),
    "head_timeout": Flag("--head-timeout", float, "a number of seconds"),
    "refusals": Flag("--refusals-per-second", whole, "a whole number"),
    "allowed_host": Flag("--allowed-host", names, "host names separated by commas"),
    "trusted_proxy": Flag("--trusted-proxy", names, "addresses separated by commas"),
    "smtp": Flag("--smtp", str, "an smtp:// or smtps:// URL"),
    "public_url": Flag("--public-url", str, "an http:// or https:// address"),
    **{f.dest: Flag(f.flag, f.kind, f.meaning) for f in LIMIT_FLAGS},
    "invite_limit": Flag("--invite-limit", whole, "a whole number"),
    "grace": Flag("--grace", float, "a number of seconds"),
    "redis": Flag("--redis", str, "a redis:// or rediss:// URL"),
}


def configure(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> str | None:
    """Fill every option not given as a flag from its environment variable, then from its
    default; the flags given win. Returns why a value is unusable (None: all good)."""
    environ = os.environ if environ is None else environ
    for dest, variable in ENVIRONMENT.items():
        value = getattr(args, dest, None)
        if isinstance(value, list):  # --allowed-host a,b --allowed-host c
            value = [name for group in value for name in group]
        raw = environ.get(variable, "").strip()
        if value is None and raw:
            flag = FLAGS[dest]
            try:
                value = flag.kind(raw)
            except ValueError:
                return f"{variable} (for {flag.name}) should be {flag.meaning}: {raw!r}"
        if value is None:
            value = DEFAULTS.get(dest)
        setattr(args, dest, value)
    if args.port is not None and not 0 <= args.port <= 65535:
        return "--port should be between 0 and 65535"
    for address in args.trusted_proxy:
        if address != "*" and not is_address(address):
            return (f"--trusted-proxy takes IP addresses or networks (such as 127.0.0.1 or "
                    f"10.0.0.0/8), not {address!r}")
    return None


def is_address(value: str) -> bool:
    try:
        ipaddress.ip_network(value, strict=False)
    except ValueError:
        return False
    return True


def account_settings(args: argparse.Namespace, shown: str) -> dict[str, Any] | str:
    """The settings of accounts (and of the limits) from the flags, or why they are wrong."""
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
    limits = limit_settings(args)  # and the limits of issue 37
    if isinstance(limits, str):
        return limits
    return {"trusted_proxies": trusted, "smtp_url": args.smtp or None, "public_url": public,
            **limits}


def run(args: argparse.Namespace) -> int:
    from spades.server import Settings
    from spades.server.hosts import ANY_ADDRESS, allowed_names
    from spades.store import Store

    problem = configure(args) or numbers_problem(args)
    url = args.db or default_url()
    problem = problem or shared_problem(args, url)  # before the store is touched
    if problem is not None:
        print(f"spades serve: {problem}", file=sys.stderr)
        return 2
    checked = check_db(url)  # and its tables created, adopted or upgraded
    if isinstance(checked, str):
        print(f"spades serve: {checked}", file=sys.stderr)
        return 2
    host = args.host
    hosts = allowed_names([host, *args.allowed_host])
    shown = "127.0.0.1" if host in ANY_ADDRESS else host
    if ":" in shown:
        shown = f"[{shown}]"
    accounts = account_settings(args, shown)
    if isinstance(accounts, str):
        print(f"spades serve: {accounts}", file=sys.stderr)
        return 2
    settings = Settings(db_url=url, pace=args.pace, workers=workers_of(args),
                        allowed_hosts=hosts, **accounts, grace=args.grace,
                        invite_limit=args.invite_limit, redis_url=args.redis or None,
                        processes=args.processes)
    lines = [f"Spades is ready: open http://{shown}:{args.port}/ in your browser",
             f"Games are saved in {Store.describe(url)}. Press Ctrl+C to stop."]
    if checked.changed:  # after the address, which comes first
        lines.append(f"The store {checked.describe()}.")
    if args.processes > 1:
        lines[0] += f" ({args.processes} server processes)"
        if settings.device_secret is None:  # one key for all, or a device known to one
            settings = dataclasses.replace(settings, device_secret=secrets.token_hex(32))
        return supervise(settings, args, args.processes, lines)
    return serve_one(settings, args, lines)


def workers_of(args: argparse.Namespace) -> int | None:
    """The thinking processes of each server process: as asked, else the cores shared out
    among the server processes (None: one per core, for a single process)."""
    if args.workers is not None or args.processes == 1:
        return int(args.workers) if args.workers is not None else None
    shared: int = max(1, (os.cpu_count() or 1) // args.processes)
    return shared


def shared_problem(args: argparse.Namespace, url: str) -> str | None:
    """Why the server processes cannot share what they must (None: they can): several
    need PostgreSQL and Redis; a Redis given must answer."""
    if args.processes > 1:
        missing = [need for need, there in (
            ("PostgreSQL (--db postgresql+psycopg://...)", url.startswith("postgresql")),
            ("Redis (--redis redis://...)", bool(args.redis))) if not there]
        if missing:
            return (f"--processes {args.processes} needs {' and '.join(missing)}: the "
                    "processes share the games and the news of each table through them")
    if args.redis:
        return check_redis(args.redis)
    return None


def numbers_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the numbers among the flags (None: nothing)."""
    if args.pace < 0 or (args.workers is not None and args.workers < 0):
        return "--pace and --workers must not be negative"
    if args.processes < 1:
        return "--processes must be at least 1"
    if ((args.per_address is not None and args.per_address < 1)
            or (args.head_timeout is not None and args.head_timeout <= 0)):
        return "--per-address and --head-timeout must be positive"
    if args.refusals is not None and args.refusals < 0:
        return "--refusals-per-second must not be negative"
    return None


def check_redis(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used (None: it answers), found before serving."""
    from urllib.parse import urlsplit

    import redis
    from redis.exceptions import RedisError

    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss", "unix") or not (parts.hostname or parts.path):
        return "--redis is not a Redis URL; for example redis://127.0.0.1:6379/0"
    where = f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}"
    try:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except (RedisError, OSError, ValueError) as error:
        return f"cannot reach Redis at {where}: {type(error).__name__}: {error}"
    return None


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
