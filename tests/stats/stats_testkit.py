"""Stored games for the statistics tests: whole games of random legal actions written to the
store action by action, as the server writes them."""

from __future__ import annotations

import random
from typing import Any

from spades.engine import (
    CODE_OF,
    Bid,
    GameState,
    action_to_json,
    apply,
    find_preset,
    legal_actions,
    new_game,
    rules_to_json,
)
from spades.store import OVER, PLAYING, ActionRow, GameRow, SeatRow, Store
from spades.store.store import now

PLAYER = "player-0000-aaaa"
OTHER = "player-1111-bbbb"


def progress(state: GameState) -> dict[str, Any]:
    return {"hands": len(state.results), "scores": list(state.scores),
            "winner": state.winner, "over": state.over}


def store_game(store: Store, game_id: str, seed: int, *, player: str = PLAYER, seat: int = 0,
               preset: str = "partnership", level: str = "easy",
               hands: int | None = None, bid: int | None = None,
               quick: bool = True) -> GameState:
    """A game of random legal actions stored for ``player`` at ``seat``: whole, or stopped
    after ``hands`` finished hands (then still in play). ``bid``: every seat bids that
    when it may; ``quick``: to 200, and -200 loses. Returns its last state."""
    rules = find_preset(preset)
    if quick:
        rules = rules.with_options(target_score=200, losing_score=-200)
    state = new_game(rules, seed)
    seats = tuple(
        SeatRow(seat=s, kind="human", name="You", player_id=player) if s == seat else
        SeatRow(seat=s, kind="computer", name=f"Bot {s}", level=level)
        for s in range(rules.players))
    moment = now()
    store.create_game(GameRow(
        id=game_id, owner=player, rules=rules_to_json(rules), seed=str(seed),
        first_dealer=state.first_dealer, options={"preset": preset, "level": level},
        seats=seats, created=moment, updated=moment, status=PLAYING, version=0,
        result=progress(state)), [CODE_OF[c] for c in state.hand.deck])
    rng = random.Random(seed)
    version = 0
    step = 0
    while not state.over and (hands is None or len(state.results) < hands):
        seat_now = state.turn
        assert seat_now is not None
        legal = legal_actions(state)
        action = Bid(bid) if bid is not None and Bid(bid) in legal else rng.choice(legal)
        after = apply(state, action)
        step += 1
        dealt = not after.over and after.hand.number != state.hand.number
        version = store.append_action(
            game_id, version, ActionRow(seq=step, hand=state.hand.number, seat=seat_now,
                                        action=action_to_json(seat_now, action)),
            deck=(after.hand.number, [CODE_OF[c] for c in after.hand.deck]) if dealt else None,
            status=OVER if after.over else None,
            result=progress(after) if dealt or after.over else None)
        state = after
    return state
