"""The routes of optional accounts (docs/protocol.md, "Accounts and sessions"): sign up,
sign in and out (here or everywhere), the account and its devices, its games as a zip,
delete it, reset a forgotten password, and move an anonymous id's games in.

Signing in or up starts a new login (a new cookie token: one set before it is worth
nothing after, so nobody can fix a session in advance); signing out deletes the login, so a
copy of the old cookie is worth nothing either. Every change made with the cookie carries
its CSRF token (``identity.person``), and every body is JSON (no cross-site form sends it).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import io
import json
import logging
import secrets
import zipfile
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from spades.accounts import (
    DeviceKeys,
    Guesses,
    Hashing,
    Limited,
    Outbox,
    Passwords,
    PolicyError,
    Resets,
    Signups,
    check_password,
    normalise_email,
)
from spades.store import AccountExistsError, AccountRow, LoginRow, StoreError

from .bodies import json_object
from .common import error_response, limited, lobby_of, watchers_of
from .forget_api import hand_over
from .forwarded import client_address, is_https
from .identity import CSRF_REFUSED, Identity, csrf_ok, identify, login_of, now, person, store_of
from .sessions import describe, new_player_id, start_login, with_cookie, without_cookie
from .watchers import (
    ACCOUNT_DELETED,
    PASSWORD_RESET,
    SIGNED_OUT,
    SIGNED_OUT_EVERYWHERE,
)

log = logging.getLogger("spades.server")
WRONG = "the email or password is wrong"
SIGN_IN_FIRST = "sign in first"
UNAVAILABLE = "the accounts cannot be reached right now; try again"
#: How long a reset link works.
RESET_LIFETIME = dt.timedelta(hours=1)
CREDENTIALS = ("email", "password")
EXAMPLE = '{"email": "ann@example.org", "password": "..."}'


#: The device cookie (``DeviceKeys``): sent to the account routes only, kept 400 days.
DEVICE_COOKIE = "spades_device"
DEVICE_PATH = "/api/account"
DEVICE_LIFETIME = 400 * 24 * 3600


def passwords_of(request: Request) -> Passwords:
    found: Passwords = request.app.state.passwords
    return found


def hashing_of(request: Request) -> Hashing:
    found: Hashing = request.app.state.hashing
    return found


def guesses_of(request: Request) -> Guesses:
    found: Guesses = request.app.state.guesses
    return found


def devices_of(request: Request) -> DeviceKeys:
    found: DeviceKeys = request.app.state.devices
    return found


def known_device(request: Request, email: str) -> str | None:
    """The nonce of this browser's device cookie for ``email`` (None: not one it knows)."""
    return devices_of(request).known(email, request.cookies.get(DEVICE_COOKIE))


def with_device(response: Response, request: Request, email: str) -> Response:
    """Remember on this browser that it signed in as ``email`` (a new device token)."""
    value = devices_of(request).remember(email, request.cookies.get(DEVICE_COOKIE))
    response.set_cookie(DEVICE_COOKIE, value, max_age=DEVICE_LIFETIME, path=DEVICE_PATH,
                        httponly=True, samesite="lax", secure=is_https(request))
    return response


async def _anonymous_checked(request: Request) -> Response | None:
    """Signing in or up from a page with a session: that session's CSRF token is needed."""
    identity = await identify(request)
    if not csrf_ok(request, identity):
        return error_response(403, CSRF_REFUSED)
    return None


async def _moving(request: Request) -> str | None:
    """The anonymous id of this page whose games the account may take in: asked once."""
    login = login_of(request)
    if login is None or login.account_id is not None:
        return None
    accounts = store_of(request).accounts
    player = login.player_id

    def waiting() -> bool:
        return (not accounts.asked(player) and accounts.owner_of(player) is None
                and accounts.count_games(player) > 0)

    return player if await asyncio.to_thread(waiting) else None


async def _signed_in(request: Request, account: AccountRow, status: int = 200,
                     said: dict[str, Any] | None = None) -> Response:
    """A new login of ``account`` for this device; the answer describes it (``said``: more
    fields of the answer)."""
    moving = await _moving(request)
    token, login = await start_login(request, account.player_id, account.id, moving)
    answer = {**await describe(request, login), **(said or {})}
    return with_cookie(JSONResponse(answer, status_code=status), request, token, login)


async def signup(request: Request) -> Response:
    data = await json_object(request, CREDENTIALS, EXAMPLE)
    if isinstance(data, Response):
        return data
    try:
        if (refused := await _anonymous_checked(request)) is not None:
            return refused
        email = normalise_email(data.get("email"))
        password = check_password(data.get("password"), email)
    except PolicyError as error:
        return error_response(400, str(error))
    except StoreError:
        log.exception("could not read a session")
        return error_response(503, UNAVAILABLE)
    try:
        signups: Signups = request.app.state.signups
        await signups.take(client_address(request))  # counted before the hash is made
        hashed = await hashing_of(request).hash(password)
    except Limited as error:
        return limited(error)
    account = AccountRow(id=secrets.token_urlsafe(16), email=email, password=hashed,
                         player_id=new_player_id(), created=now())
    try:
        await asyncio.to_thread(store_of(request).accounts.create, account)
        answer = await _signed_in(request, account, status=201)
        return with_device(answer, request, email)
    except AccountExistsError:
        return error_response(409, "there is an account with that email: sign in, or reset "
                              "its password if it is forgotten")
    except StoreError:
        log.exception("could not sign up")
        return error_response(503, UNAVAILABLE)


async def _account_if_right(request: Request, email: str, password: str,
                            device: str | None) -> AccountRow | None:
    """The account of ``email`` if ``password`` is its own (held back as ``Guesses`` say:
    Limited, or a wait in the account's lane first)."""
    guesses = guesses_of(request)
    await guesses.check(email, client_address(request), device)  # a held try tells nothing
    accounts = store_of(request).accounts

    async def checked() -> AccountRow | None:
        account = await asyncio.to_thread(accounts.by_email, email)
        stored = account.password if account is not None else None
        return account if await hashing_of(request).verify(stored, password) else None

    async with guesses.lane(email, device):  # one at a time, slowed under attack
        return await checked()


async def signin(request: Request) -> Response:
    data = await json_object(request, CREDENTIALS, EXAMPLE)
    if isinstance(data, Response):
        return data
    email, password = data.get("email"), data.get("password")
    if not isinstance(email, str) or not isinstance(password, str):
        return error_response(400, f"signing in takes an email and a password: {EXAMPLE}")
    try:
        email = normalise_email(email)
    except PolicyError:
        return error_response(401, WRONG)
    guesses, address = guesses_of(request), client_address(request)
    device = known_device(request, email)
    try:
        if (refused := await _anonymous_checked(request)) is not None:
            return refused
        account = await _account_if_right(request, email, password, device)
        if account is None:
            await guesses.fail(email, address, device)
            return error_response(401, WRONG)
        await guesses.succeed(email, address, device)
        if passwords_of(request).stale(account.password):
            hashed = await hashing_of(request).hash(password)
            await asyncio.to_thread(store_of(request).accounts.set_password, account.id, hashed)
        return with_device(await _signed_in(request, account), request, email)
    except Limited as error:
        return limited(error)
    except StoreError:
        log.exception("could not sign in")
        return error_response(503, UNAVAILABLE)


async def _account_login(request: Request) -> tuple[Identity, LoginRow] | Response:
    """The signed-in login of a change (with its CSRF token), or the refusal."""
    who = await person(request, change=True)
    if isinstance(who, Response):
        return who
    login = login_of(request)
    if who.account is None or login is None:
        return error_response(401, SIGN_IN_FIRST)
    return who, login


async def signout(request: Request) -> Response:
    try:
        who = await person(request, change=True)
        if isinstance(who, Response):
            return who
        login = login_of(request)
        if login is not None:
            await asyncio.to_thread(store_of(request).accounts.sign_out, [login.id])
            await watchers_of(request).end(SIGNED_OUT, logins=[login.id])
    except StoreError:
        log.exception("could not sign out")
        return error_response(503, UNAVAILABLE)
    return without_cookie(JSONResponse({"player": None, "account": None, "csrf": None}),
                          request)


async def signout_everywhere(request: Request) -> Response:
    try:
        found = await _account_login(request)
        if isinstance(found, Response):
            return found
        who, _login = found
        await asyncio.to_thread(store_of(request).accounts.sign_out, account_id=who.account)
        await watchers_of(request).end(SIGNED_OUT_EVERYWHERE, account=who.account)
    except StoreError:
        log.exception("could not sign out everywhere")
        return error_response(503, UNAVAILABLE)
    return without_cookie(JSONResponse({"player": None, "account": None, "csrf": None}),
                          request)


async def delete_account(request: Request) -> Response:
    data = await json_object(request, ("password",), '{"password": "..."}')
    if isinstance(data, Response):
        return data
    try:
        found = await _account_login(request)
        if isinstance(found, Response):
            return found
        who, _login = found
        assert who.account is not None
        accounts = store_of(request).accounts
        account = await asyncio.to_thread(accounts.get, who.account)
        if account is None:
            return error_response(401, SIGN_IN_FIRST)
        guesses, address = guesses_of(request), client_address(request)
        await guesses.check(account.email, address)
        right = await hashing_of(request).verify(account.password,
                                                 str(data.get("password", "")))
        if not right:
            await guesses.fail(account.email, address)
            return error_response(403, "the password is wrong: nothing was deleted")
        seated = await asyncio.to_thread(accounts.games_of, account.id)
        deleted = await asyncio.to_thread(accounts.delete, account.id)
        await watchers_of(request).end(ACCOUNT_DELETED, account=account.id)  # its own first,
        # then anyone else's on its games; the games others sit at go on: the person's
        # seats are computer players' now
        await hand_over(request, seated, deleted)
    except Limited as error:
        return limited(error)
    except StoreError:
        log.exception("could not delete an account")
        return error_response(503, UNAVAILABLE)
    return without_cookie(JSONResponse({"deleted": True, "games": len(deleted)}), request)


async def account_info(request: Request) -> Response:
    try:
        identity = await identify(request)
        login = login_of(request)
        if identity is None or identity.account is None or login is None:
            return error_response(401, SIGN_IN_FIRST)
        accounts = store_of(request).accounts
        account = await asyncio.to_thread(accounts.get, identity.account)
        logins = await asyncio.to_thread(accounts.logins, identity.account)
    except StoreError:
        log.exception("could not read an account")
        return error_response(503, UNAVAILABLE)
    if account is None:
        return error_response(401, SIGN_IN_FIRST)
    devices = [{"label": d.device, "last_seen": d.last_seen.isoformat(),
                "signed_in": d.created.isoformat(), "this_device": d.id == login.id}
               for d in logins]
    return JSONResponse({"email": account.email, "created": account.created.isoformat(),
                         "devices": devices}, headers={"Cache-Control": "no-store"})


async def games_zip(request: Request) -> Response:
    """Every game of this person as a ``spades-record`` file, in one zip."""
    who = await person(request)
    if isinstance(who, Response):
        return who
    lobby = lobby_of(request)
    try:
        games = await lobby.list_games(who.players)
        records: list[tuple[str, dict[str, Any]]] = []
        for game in games:
            data = await lobby.download(game["id"], who.players)
            if data is not None:
                records.append((game["id"], data))
    except StoreError:
        log.exception("could not read the games for a zip")
        return error_response(503, "the saved games cannot be read right now")

    def packed() -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for game_id, data in records:
                archive.writestr(f"spades-{game_id}.json", json.dumps(data, indent=1))
        return out.getvalue()

    body = await asyncio.to_thread(packed)
    return Response(body, media_type="application/zip", headers={
        "Content-Disposition": 'attachment; filename="spades-games.zip"',
        "Cache-Control": "no-store"})


def reset_id(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def reset(request: Request) -> Response:
    """Send a reset link if the email has an account; the answer is the same either way."""
    data = await json_object(request, ("email",), '{"email": "ann@example.org"}')
    if isinstance(data, Response):
        return data
    try:
        email = normalise_email(data.get("email"))
    except PolicyError as error:
        return error_response(400, str(error))
    resets: Resets = request.app.state.resets
    try:
        await resets.take(email, client_address(request))  # every ask counts
    except Limited as error:
        return limited(error)
    task = asyncio.create_task(_send_reset(request, email))
    request.app.state.mailing.add(task)
    task.add_done_callback(request.app.state.mailing.discard)
    return JSONResponse({"sent": True, "message": "if an account has that email, a link to "
                         "choose a new password is on its way; it works once, for an hour"})


async def _send_reset(request: Request, email: str) -> None:
    """In the background (the answer does not wait: its timing tells nothing)."""
    state = request.app.state
    try:
        account = await asyncio.to_thread(store_of(request).accounts.by_email, email)
        if account is None:
            return
        token = secrets.token_urlsafe(32)
        await asyncio.to_thread(store_of(request).accounts.add_reset, reset_id(token),
                                account.id, now() + RESET_LIFETIME)
        link = f"{state.settings.public_url.rstrip('/')}/#reset={token}"
        outbox: Outbox = state.outbox
        await asyncio.to_thread(outbox.send_reset, account.email, link)
    except Exception:
        log.exception("a password reset link could not be sent")


async def reset_confirm(request: Request) -> Response:
    data = await json_object(request, ("token", "password"),
                             '{"token": "from the link", "password": "..."}')
    if isinstance(data, Response):
        return data
    token = data.get("token")
    if not isinstance(token, str) or not 16 <= len(token) <= 128:
        return error_response(400, "token is the code at the end of the reset link")
    accounts = store_of(request).accounts
    try:
        if (refused := await _anonymous_checked(request)) is not None:
            return refused
        owner = await asyncio.to_thread(accounts.reset_owner, reset_id(token), now())
        if owner is None:
            return error_response(400, "this reset link is unknown, used or over an hour "
                                  "old: ask for a new one")
        password = check_password(data.get("password"), owner.email)
        hashed = await hashing_of(request).hash(password)
        done = await asyncio.to_thread(accounts.reset_password, reset_id(token), hashed, now())
    except PolicyError as error:
        return error_response(400, str(error))
    except Limited as error:
        return limited(error)
    except StoreError:
        log.exception("could not reset a password")
        return error_response(503, UNAVAILABLE)
    if done is None:
        return error_response(400, "this reset link was used meanwhile: ask for a new one")
    await watchers_of(request).end(PASSWORD_RESET, account=done)  # every device was signed out
    await guesses_of(request).reset(owner.email)
    # The link proved the mailbox and the new password is set: this device is signed in
    # with it (a new login; every other device was signed out above).
    try:
        answer = await _signed_in(request, owner, said={
            "reset": True, "message": "your password is changed; you are signed in"})
        return with_device(answer, request, owner.email)
    except StoreError:
        log.exception("could not sign in after a password reset")
        return JSONResponse({"reset": True, "message": "the password is changed and every "
                             "device is signed out: sign in with the new one"})


async def move(request: Request) -> Response:
    """Answer "move this device's games into the account?": once, either way."""
    data = await json_object(request, ("move",), '{"move": true}')
    if isinstance(data, Response):
        return data
    answer = data.get("move")
    if not isinstance(answer, bool):
        return error_response(400, 'move is true (the games join the account) or false '
                              '(they stay with this device\'s anonymous id)')
    try:
        found = await _account_login(request)
        if isinstance(found, Response):
            return found
        who, login = found
        if login.moving is None:
            return error_response(409, "no games are waiting to move into this account")
        assert who.account is not None
        await asyncio.to_thread(store_of(request).accounts.answer_move, login.id,
                                who.account, login.moving, answer, now())
        fresh = await asyncio.to_thread(store_of(request).accounts.login, login.id, now())
        body = await describe(request, fresh)
    except StoreError:
        log.exception("could not move games")
        return error_response(503, UNAVAILABLE)
    return JSONResponse(body)
