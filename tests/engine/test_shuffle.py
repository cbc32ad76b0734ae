"""Provable shuffles (docs/shuffle.md): the documented vectors re-derive, each hand has its
own seed, the stream's rejection sampling, evenness, entropy, and the legacy shuffle of older
games."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from spades.engine import PRESETS, add_entropy, apply, legal_actions, new_game, parse_card
from spades.engine.shuffle import (
    LEGACY,
    Shuffle,
    _Stream,
    commitment,
    deck_of_hand,
    hand_commitment,
    hand_salt,
    hand_seed,
    shuffle_key,
    shuffled,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"


def vectors() -> dict[str, Any]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 1, "docs/shuffle.md holds one block of test vectors"
    data: dict[str, Any] = json.loads(blocks[0])
    return data


def codes(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_the_documented_card_order_is_the_variants() -> None:
    data = vectors()
    assert codes(data["cards"]) == list(PRESETS["partnership"].deck)
    assert codes(data["jokers_cards"]) == list(PRESETS["jokers"].deck)


def test_the_documented_key_and_first_block() -> None:
    key = vectors()["key"]
    derived = shuffle_key(key["seed"], key["contributions"])
    assert derived.hex() == key["key"]
    assert hashlib.sha256(derived + bytes(8)).hexdigest() == key["block_0"]


@pytest.mark.parametrize("index", range(3))
def test_the_documented_decks_re_derive(index: int) -> None:
    data = vectors()
    case = data["decks"][index]
    deck = shuffled(codes(data[case["cards"]]), case["seed"], case["contributions"])
    assert deck == tuple(codes(case["deck"]))


def test_the_documented_salted_commitments() -> None:
    for case in vectors()["commitments"]:
        assert commitment(case["seed"], case["salt"]) == case["commitment"]
        assert commitment(case["seed"], case["salt"][::-1]) != case["commitment"]


def test_the_documented_hand_seed_commitment_and_deck() -> None:
    data = vectors()
    for case in data["hand_seeds"]:
        seed = hand_seed(case["game_seed"], case["hand"])
        assert seed == case["hand_seed"]
        assert hand_salt(case["game_seed"], case["hand"]) == case["salt"]
        assert commitment(seed, case["salt"]) == case["commitment"]
        assert hand_commitment(case["game_seed"], case["hand"]) == case["commitment"]
        assert commitment(seed) == case["plain_commitment"]
        assert shuffled(codes(data["cards"]), seed) == tuple(codes(case["deck"]))
        rules = PRESETS["partnership"]
        assert deck_of_hand(rules.deck, case["game_seed"], case["hand"]) == tuple(
            codes(case["deck"]))


def test_a_game_deals_each_hand_from_its_own_seed() -> None:
    rules = PRESETS["partnership"]
    state = new_game(rules, seed="game-seed")
    assert state.hand.deck == shuffled(rules.deck, hand_seed("game-seed", 0))
    rng = random.Random(0)
    while not state.results:
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.hand.number == 1
    assert state.hand.deck == shuffled(rules.deck, hand_seed("game-seed", 1))
    assert hand_seed("game-seed", 0) != hand_seed("game-seed", 1)


def test_rejection_sampling_discards_the_words_that_would_bias() -> None:
    stream = _Stream(b"")
    words = iter([0xFFFFFFFF, 0xFFFFFFFE, 7])
    stream.word = lambda: next(words)  # type: ignore[method-assign]
    # 2^32 mod 3 == 1: the last word (2^32 - 1) is refused, 2^32 - 2 is kept
    assert stream.below(3) == 0xFFFFFFFE % 3
    assert stream.below(3) == 7 % 3


def test_every_order_of_three_cards_is_about_as_likely() -> None:
    counts = Counter(shuffled((0, 1, 2), f"even/{i}") for i in range(6000))
    assert len(counts) == 6
    assert all(850 < n < 1150 for n in counts.values()), counts


def test_entropy_changes_the_deck_of_a_hand_not_yet_dealt() -> None:
    rules = PRESETS["partnership"]
    state = new_game(rules, seed="s")
    mixed = add_entropy(state, 1, ["alice", "bob"])
    assert mixed.hand == state.hand
    rng = random.Random(1)
    plain, other = state, mixed
    while not plain.results:
        action = rng.choice(legal_actions(plain))
        plain, other = apply(plain, action), apply(other, action)
    assert plain.hand.deck == shuffled(rules.deck, hand_seed("s", 1))
    assert other.hand.deck == shuffled(rules.deck, hand_seed("s", 1), ["alice", "bob"])
    assert plain.hand.deck != other.hand.deck
    with pytest.raises(ValueError, match="already dealt"):
        add_entropy(state, 0, ["late"])


def test_older_games_keep_the_legacy_shuffle() -> None:
    rules = PRESETS["partnership"]
    state = new_game(rules, seed="old", shuffle=Shuffle(LEGACY))
    cards = list(rules.deck)
    random.Random("old/0").shuffle(cards)
    assert state.hand.deck == tuple(cards)


def test_the_inlined_shuffle_is_the_stream_s_fisher_yates() -> None:
    """``shuffled`` inlines ``_Stream.below`` for speed: the two agree."""
    for seed in ("a", "b", "c"):
        stream = _Stream(shuffle_key(seed))
        cards = list(range(54))
        for i in range(len(cards) - 1, 0, -1):
            j = stream.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        assert shuffled(range(54), seed) == tuple(cards)  # type: ignore[arg-type]
