"""Undo in the session (issue 41 item 2): only for a person alone with computer players and
the house rule on; the undo is a new row of the store (nothing kept is removed) and the
game resumes from the store the same; the listeners hear what was taken back; the practice
mark the hint will use."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from sessionkit import Ear, run_async

from spades.ai.simple import RandomPlayer
from spades.engine import GameState, Play, Rules, TakenBack, find_preset, load_record
from spades.session import (
    InlineThinker,
    RecordFile,
    Refusal,
    Session,
    Sitter,
    StoreSaver,
    new_game_row,
    seat_rows,
    state_from_store,
)
from spades.store import Store

pytestmark = pytest.mark.timeout(120)
ME = "me-0000000000"



def _rules(undo: bool = True) -> Rules:
    return find_preset("partnership").with_options(undo=undo)


def _alone(undo: bool = True) -> tuple[Sitter, ...]:
    return (Sitter(player=ME), Sitter(level="random"), Sitter(level="random"),
            Sitter(level="random"))


def _session(save: Path, rules: Rules, sitters: tuple[Sitter, ...],
             seed: int = 4) -> Session:
    from spades.engine import new_game
    seats = seat_rows(sitters)
    computers = {s.seat: RandomPlayer() for s in seats if s.kind == "computer"}
    return Session("g", seats, new_game(rules, seed, first_dealer=3),
                   saver=RecordFile(save, tuple(s.name for s in seats)),
                   thinker=InlineThinker(computers, random.Random(seed)))


async def _settle(session: Session) -> None:
    """Wait while the computer players play (``act`` set them going)."""
    await asyncio.sleep(0)
    while not session.idle:
        await asyncio.sleep(0.01)


async def _play_to_my_card(session: Session) -> None:
    """Bid, then play seat 0's first card and let the computer players answer."""
    await session.act(0, session.version, {"bid": 3})
    await _settle(session)
    await session.act(0, session.version, {"play": _card(session.state)})
    await _settle(session)


def _card(state: GameState) -> str:
    from spades.engine import CODE_OF, legal_actions
    action = legal_actions(state)[0]
    assert isinstance(action, Play)
    return CODE_OF[action.card]


def test_an_undo_takes_back_my_card_and_the_computer_players_answers(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    session = _session(save, _rules(), _alone())
    ear = Ear()
    session.listen(ear)

    async def go() -> int:
        await _play_to_my_card(session)
        before = session.state
        assert before.hand.turn == 0 and len(before.hand.actions) > 5
        await session.undo(0)
        after = session.state
        assert after.hand.turn == 0
        assert after.hand.actions == before.hand.actions[:4]  # the four bids stay
        change = ear.changes[-1]
        assert change.undone and change.action is None
        told = change.events(0)
        assert isinstance(told[0], TakenBack)
        assert told[0].count == len(before.hand.actions) - 4
        assert session.step == len(ear.changes)
        return len(before.hand.actions) - 4
    count = run_async(go())
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["format"] == "spades-record/3"
    assert {"seat": 0, "undo": count} in data["hands"][0]["actions"]
    assert load_record(data).hand == session.state.hand


def test_undo_is_refused_without_the_house_rule_and_with_another_person(
        tmp_path: Path) -> None:
    plain = _session(tmp_path / "a.json", _rules(undo=False), _alone())
    two = (Sitter(player=ME), Sitter(level="random"), Sitter(player="you-00000000"),
           Sitter(level="random"))
    people = _session(tmp_path / "b.json", _rules(), two)
    friends = _session(tmp_path / "c.json", _rules(), _alone())
    friends.friends = True

    async def go() -> None:
        for session, words in ((plain, "Allow undo"), (people, "against computer players"),
                               (friends, "against computer players")):
            await session.act(0, session.version, {"bid": 3})
            version = session.version
            with pytest.raises(Refusal, match=words):
                await session.act(0, session.version, {"undo": True})
            assert session.version == version and not session.state.undos
        computer = _session(tmp_path / "d.json", _rules(), _alone())
        assert "against computer players" in (computer.undo_refusal(1) or "")
    run_async(go())


def test_an_undo_with_nothing_to_take_back_changes_nothing(tmp_path: Path) -> None:
    session = _session(tmp_path / "g.json", _rules(), _alone())

    async def go() -> None:
        with pytest.raises(Refusal, match="no card or bid of this hand"):
            await session.undo(0)
        assert session.version == 0
    run_async(go())


def test_the_undo_is_a_new_row_and_the_game_resumes_the_same(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        row, state = new_game_row(ME, _rules(), _alone(), {"preset": "partnership"},
                                  first_dealer=3)
        store.create_game(row, [str(c) for c in state.hand.deck])
        computers = {s.seat: RandomPlayer() for s in row.seats if s.kind == "computer"}
        session = Session(row.id, row.seats, state, saver=StoreSaver(store, row.id),
                          thinker=InlineThinker(computers, random.Random(2)))

        async def go() -> int:
            await _play_to_my_card(session)
            await session.undo(0)
            await session.act(0, session.version, {"play": _card(session.state)})
            await _settle(session)
            await session.mark_practice("hint")
            await session.mark_practice("hint")  # once is enough
            return len(session.state.undos[0].taken)
        taken = run_async(go())
        stored = store.load_game(row.id)
        assert stored is not None
        undos = [r for r in stored.actions if "undo" in r.action]
        assert [r.action for r in undos] == [{"seat": 0, "undo": taken}]
        # nothing taken back is removed: the kept actions, the undo and those taken back
        kept = len(session.state.hand.actions)
        assert len(stored.actions) == kept + 1 + taken == session.step
        assert [r.action for r in stored.marks] == [{"seat": 0, "practice": "hint"}]
        assert stored.rows == session.rows == session.step + 1
        resumed = state_from_store(stored)
        assert resumed._replace(decks=()) == session.state._replace(decks=())
        assert resumed.marks == ("hint",)
    finally:
        store.close()
