"""What the JavaScript unit tests (tests/web/*.test.mjs) check the browser's modules against,
made at test time by the Python engine and server, so that nothing written down can drift:
the cards, shuffles and commitments (spades-shuffle/1, docs/shuffle.md), the seat each card
of a deck is dealt to, score sheets with the bag penalties the engine's scoring applied, and
the state messages a seat receives over two revealed hands."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from spades.engine import (
    CODE_OF,
    NAME_OF,
    PRESETS,
    SUIT_OF,
    GameState,
    add_entropy,
    apply,
    apply_bags,
    commitment,
    hand_salt,
    hand_seed,
    legal_actions,
    new_game,
    player_view,
    shuffled,
    side_points,
)
from spades.engine.cards import CARDS
from spades.server.messages import meta_json, state_json
from spades.server.wire import sheet_line
from spades.session import Snapshot

Json = dict[str, Any]

#: The entropy the page gives when the tests make its random bytes all 0x5a (watch.json).
PAGE_ENTROPY = "5a" * 16


def codes(cards: Any) -> list[str]:
    return [CODE_OF[c] for c in cards]


def cards() -> list[Json]:
    """Every card as the engine numbers, codes and names it."""
    return [{"index": int(c), "code": CODE_OF[c], "name": NAME_OF[c], "suit": int(SUIT_OF[c])}
            for c in CARDS]


def vectors() -> Json:
    """Decks shuffled by the engine from seeds and entropy (any text, in UTF-8), hand seeds
    and commitments in both schemes."""
    standard = PRESETS["partnership"].deck
    jokers = PRESETS["jokers"].deck
    decks = []
    for i, (cards, entropy) in enumerate([
            (standard, []), (standard, ["alice", "bob"]), (jokers, []),
            (jokers, ["é", "🂡 spade"]), (standard[:5], ["x"]), (standard[:2], []),
            (standard[:1], []), (PRESETS["three-player"].deck, ["", "", "three"])]):
        seed = hand_seed(f"vector-{i}", i)
        decks.append({"cards": codes(cards), "seed": seed, "entropy": entropy,
                      "deck": codes(shuffled(cards, seed, entropy))})
    games: list[tuple[int | str, int]] = [("browser", 0), ("browser", 1), (12345, 7),
                                          ("ünïcode", 12)]
    seeds = [{"game_seed": game, "hand": hand, "seed": hand_seed(game, hand)}
             for game, hand in games]
    commitments = []
    for game, hand in [("browser", 0), ("other", 3)]:
        seed, salt = hand_seed(game, hand), hand_salt(game, hand)
        commitments.append({"seed": seed, "salt": salt, "salted": commitment(seed, salt),
                            "plain": commitment(seed)})
    return {"decks": decks, "hand_seeds": seeds, "commitments": commitments}


def deals() -> list[Json]:
    """For each variant dealt round the table: a first hand's deck and, for each card of
    it, the seat whose hand it is in after the deal (-1: in no hand, the kitty)."""
    out = []
    for name, rules in PRESETS.items():
        if rules.draw:
            continue
        for dealer_seed in ("deal-a", "deal-b"):
            state = new_game(rules, seed=dealer_seed)
            held = {CODE_OF[c]: seat for seat in range(rules.players)
                    for c in player_view(state, seat).hand}
            deck = codes(state.hand.deck)
            out.append({"preset": name, "players": rules.players, "dealer": state.hand.dealer,
                        "deck": deck, "owners": [held.get(c, -1) for c in deck]})
    return out


def _played(rules_name: str, seed: int, hands: int) -> GameState:
    """A game of ``rules_name`` played at random (from ``seed``) for ``hands`` hands at most."""
    rng = random.Random(seed)
    state = new_game(PRESETS[rules_name], seed=f"sheet-{seed}")
    while not state.over and len(state.results) < hands:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def sheets() -> list[Json]:
    """Score sheets of games played at random, each line with the sides the engine's
    scoring charged a bag penalty (``scoring.apply_bags``), and whether a seat bid nil (or
    a side shot at the moon) in it."""
    out = []
    for name in ("partnership", "house", "cutthroat", "three-player", "online", "two-player"):
        for seed in range(6):
            state = _played(name, seed, 30)
            rules = state.rules
            lines, charged, plain = [], [], []
            before = [0] * len(rules.sides)
            for result in state.results:
                penalised = []
                for i, side in enumerate(rules.sides):
                    _, fresh = side_points(rules, side, result.bids, result.tricks)
                    penalty, _ = apply_bags(rules, before[i], fresh)
                    if penalty:
                        penalised.append(i)
                moon = rules.moon_value is not None and any(
                    not b.nil and b.tricks == rules.hand_size for b in result.bids)
                plain.append(not moon and not any(b.nil for b in result.bids))
                charged.append(penalised)
                view_line = player_view(state, 0).sheet[result.number]
                lines.append(sheet_line(view_line, rules.sides))
                before = list(result.score.bags)
            out.append({"preset": name, "seed": seed, "sides": [list(s) for s in rules.sides],
                        "rules": {"bag_limit": rules.bag_limit, "bag_penalty": rules.bag_penalty},
                        "lines": lines, "penalised": charged, "plain": plain})
    return out


def watch() -> Json:
    """The state messages seat 0 gets, one after each action, from a game's start until the
    first state of hand 3 (hands 1 and 2 revealed); the page's entropy (``PAGE_ENTROPY``)
    is in hand 2's shuffle, as the server adds it when the page sends it."""
    rules = PRESETS["partnership"]
    names = ("You", "Bramble", "Juniper", "Clover")
    state = add_entropy(new_game(rules, seed="watch"), 1, [PAGE_ENTROPY])
    meta = meta_json("watch-game", rules, names, {"preset": rules.name})
    rng = random.Random(7)
    messages: list[Json] = []
    version = 0
    while len(state.results) < 2 or not messages:
        messages.append(state_json(meta, Snapshot(state, version, version), 0, [], None, names))
        state = apply(state, rng.choice(legal_actions(state)))
        version += 1
    messages.append(state_json(meta, Snapshot(state, version, version), 0, [], None, names))
    return {"messages": messages, "page_entropy": PAGE_ENTROPY}


def write_fixtures(folder: Path) -> None:
    """Every fixture, one JSON file each, in ``folder`` (read by tests/web/kit.mjs)."""
    for name, data in (("cards", cards()), ("vectors", vectors()), ("deals", deals()),
                       ("sheets", sheets()), ("watch", watch())):
        (folder / f"{name}.json").write_text(json.dumps(data))
