"""The server never holds a ``GameState`` (issue 42 item 5): the game's state stays behind
the session's API (``spades.session``: ``Snapshot``, ``Change``, ``Session`` and the
functions of ``session/games.py``), and the server only serialises the projections the
engine's observation layer makes there.

Import-linter contracts forbid modules, not names, so this reads every module of
``spades.server`` (its syntax tree, not its text) and fails on:

- an import from ``spades.engine`` of a state-handling name: ``GameState``, ``HandState``,
  or any function of the engine's public API whose parameters or result are typed with
  them (``apply``, ``new_game``, ``player_view``, ``events``, ``seat_record``,
  ``deal_again``, ...; worked out from the annotations, so a new one is covered too), or
  the same name reached as an attribute of the engine module (``engine.apply``);
- an import from an engine submodule (import-linter forbids it too);
- a read of the state held by the session's objects: ``.state`` of a session, snapshot,
  served table (``session.state``, ``snapshot.state``, ``change.after.state``,
  ``table.state``) or ``change.before``.

The planted sources at the end show that each kind is caught.
"""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest

import spades.engine as engine
from spades.engine import GameState, HandState

SERVER = Path(__file__).resolve().parents[2] / "src" / "spades" / "server"
#: The names the session's objects go by in the server: ``X.state`` is their game's state.
HOLDERS = frozenset({"session", "snapshot", "told", "after", "table", "served", "first",
                     "game"})
STATE_TYPES = (GameState, HandState)


def _handles_state(obj: object) -> bool:
    if obj in STATE_TYPES:
        return True
    if not inspect.isfunction(obj):
        return False
    hints = typing.get_type_hints(obj)
    return any(t.__name__ in repr(hint) for hint in hints.values() for t in STATE_TYPES)


#: The engine's state-handling names, from its public API's annotations.
FORBIDDEN = frozenset(name for name in engine.__all__ if _handles_state(getattr(engine, name)))


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def offences(source: str) -> list[str]:
    """What in ``source`` (a module of the server) handles the game's state, by line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("spades.engine"):
            if node.module != "spades.engine":
                found.append(f"line {node.lineno}: imports from {node.module}")
            found += [f"line {node.lineno}: imports {a.name} from spades.engine"
                      for a in node.names if a.name in FORBIDDEN]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names
                      if a.name.startswith("spades.engine.")]
        elif isinstance(node, ast.Attribute):
            owner = _last_name(node.value)
            if node.attr in FORBIDDEN and owner == "engine":
                found.append(f"line {node.lineno}: uses engine.{node.attr}")
            elif node.attr == "state" and owner in HOLDERS:
                found.append(f"line {node.lineno}: reads {owner}.state")
            elif node.attr == "before" and owner == "change":
                found.append(f"line {node.lineno}: reads change.before")
    return found


def test_the_forbidden_names_are_the_state_handling_ones() -> None:
    """The list worked out from the annotations holds what the server used to call, and
    leaves what it may use (the rules, the actions' parsing, the cards' codes)."""
    assert {"GameState", "apply", "new_game", "player_view", "public_view", "events",
            "public_events", "seat_record", "seat_update", "deal_again", "shuffle_news",
            "legal_actions", "undo"} <= FORBIDDEN
    assert not {"Rules", "rules_from_json", "parse_action", "action_to_json", "CODE_OF",
                "PlayerView", "SeatUpdate", "NO_SEAT"} & FORBIDDEN


@pytest.mark.parametrize("path", sorted(SERVER.glob("*.py")), ids=lambda p: p.name)
def test_no_server_module_holds_the_game_state(path: Path) -> None:
    assert offences(path.read_text(encoding="utf-8")) == []


PLANTED = {
    "from spades.engine import GameState\n": "imports GameState",
    "from spades.engine import CODE_OF, apply\n": "imports apply",
    "from spades.engine import player_view as seen\n": "imports player_view",
    "from spades.engine.view import PlayerView\n": "imports from spades.engine.view",
    "import spades.engine.game\n": "imports spades.engine.game",
    "from spades import engine\nx = engine.new_game\n": "uses engine.new_game",
    "def f(table):\n    return table.session.state.hand\n": "reads session.state",
    "def f(change):\n    return change.after.state\n": "reads after.state",
    "def f(change):\n    return change.before.rules\n": "reads change.before",
}


@pytest.mark.parametrize("source", sorted(PLANTED))
def test_a_planted_state_handling_is_caught(source: str) -> None:
    found = offences(source)
    assert len(found) == 1 and PLANTED[source] in found[0], found


def test_what_the_server_may_do_is_not_caught() -> None:
    allowed = ("from spades.engine import NO_SEAT, PlayerView, Rules, rules_from_json\n"
               "def f(person, request, snapshot):\n"
               "    return person.state, request.app.state, snapshot.view(0)\n")
    assert offences(allowed) == []
