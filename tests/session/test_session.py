"""The session's turn loop: any mix of people and computer players at any seats, every
change saved before it is told, refusals that change nothing."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from sessionkit import Ear, run_async

from spades.ai.simple import RandomPlayer
from spades.engine import Action, PlayerView, find_preset, load_record, new_game
from spades.session import (
    GameEnded,
    InlineThinker,
    RecordFile,
    Refusal,
    Session,
    Sitter,
    seat_rows,
)

pytestmark = pytest.mark.timeout(120)



def session_for(preset: str, sitters: tuple[Sitter, ...], save: Path,
                seed: int = 5) -> Session:
    rules = find_preset(preset).with_options(target_score=150, losing_score=-150)
    seats = seat_rows(sitters)
    computers = {s.seat: RandomPlayer() for s in seats if s.kind == "computer"}
    names = tuple(s.name for s in seats)
    return Session("g", seats, new_game(rules, seed), saver=RecordFile(save, names),
                   thinker=InlineThinker(computers, random.Random(seed)))


def test_people_at_seats_1_and_3_play_a_whole_game(tmp_path: Path) -> None:
    sitters = (Sitter(level="random"), Sitter(player="one-person"), Sitter(level="random"),
               Sitter(player="two-person"))
    save = tmp_path / "game.json"
    session = session_for("partnership", sitters, save)
    ear = Ear()
    session.listen(ear)
    asked: list[int] = []
    rng = random.Random(1)

    async def person(view: PlayerView) -> Action:
        asked.append(view.seat)
        return rng.choice(view.legal)

    state = run_async(session.run({1: person, 3: person}))
    assert state.over
    assert set(asked) == {1, 3} and set(ear.thought) == {0, 2}
    assert [c.after.step for c in ear.changes] == list(range(1, session.step + 1))
    assert isinstance(ear.changes[-1].events(1)[-1], GameEnded)
    # the record is the save: the file replays to the same game
    assert load_record(json.loads(save.read_text())).scores == state.scores
    assert session.seat_of("two-person") == 3 and session.seat_of("nobody") is None


def test_a_run_stops_where_a_person_who_acts_by_intent_must_act(tmp_path: Path) -> None:
    sitters = (Sitter(level="random"), Sitter(level="random"), Sitter(player="p-seat-2"))
    session = session_for("three-player", sitters, tmp_path / "g.json")

    async def go() -> tuple[int | None, int]:
        await session.run()
        turn, version = session.state.turn, session.version
        with pytest.raises(Refusal) as stale:
            await session.act(2, version - 1, {"bid": 3})
        assert stale.value.code == "stale"
        assert "version" not in stale.value.message and str(version) not in stale.value.message
        with pytest.raises(Refusal) as other:
            await session.act(1, version, {"bid": 3})
        assert other.value.code == "not-your-turn"
        with pytest.raises(Refusal) as bad:
            await session.act(2, version, {"bid": 99})
        assert bad.value.code in ("illegal", "bad-message")
        assert session.version == version  # nothing changed
        return turn, version

    turn, version = run_async(go())
    assert turn == 2
    assert not (tmp_path / "g.json").exists() or version > 0


def test_a_stand_in_that_waited_for_the_lock_does_not_play_for_a_person_back(
        tmp_path: Path) -> None:
    """The computer player's turn is read again under the session's lock: a person who came
    back while it waited decides for themselves (before, the stand-in played their turn;
    with the turn moved meanwhile it asked the player for a seat not to act and died)."""
    sitters = (Sitter(player="p-seat-0"), Sitter(level="random"), Sitter(level="random"),
               Sitter(level="random"))
    session = session_for("partnership", sitters, tmp_path / "g.json", seed=3)
    ear = Ear()
    session.listen(ear)

    async def go() -> tuple[int | None, int, int | None, int]:
        await session.run()  # the computer players play up to the person's turn
        turn, step = session.state.turn, session.step
        await session.lock.acquire()
        session.stand_in(0, True)  # away: a run starts and waits for the lock
        await asyncio.sleep(0.05)
        session.stand_in(0, False)  # back before the stand-in could look
        session.lock.release()
        await asyncio.sleep(0.05)
        await session.stop()
        return turn, step, session.state.turn, session.step

    turn, step, turn_after, step_after = run_async(go())
    assert turn == 0 and turn_after == 0 and step_after == step
    assert 0 not in ear.thought
