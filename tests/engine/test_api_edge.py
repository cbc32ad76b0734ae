"""The engine's API as a new user meets it (issue 7 item 10): a preset name where ``Rules``
is expected, card text where a card is expected, and options that cannot be played, each
accepted or refused with a message that says what to pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spades.engine import (
    PRESETS,
    Bid,
    DeckError,
    IllegalActionError,
    Phase,
    Play,
    RulesError,
    apply,
    legal_actions,
    make_rules,
    new_game,
    parse_card,
)


@pytest.mark.parametrize("preset", ["partnership", "two-player", "house"])
def test_blind_nil_pass_larger_than_the_hand_is_refused(preset: str) -> None:
    rules = PRESETS[preset]
    too_many = rules.hand_size + 1
    options = dict(blind_nil=True, blind_nil_pass=too_many)
    if not rules.partnership:
        options["partnership"] = True
        options["players"] = 4
        options["draw"] = False
        options["moon_value"] = None
    with pytest.raises(RulesError, match=r"blind_nil_pass \(14\) is more than a hand \(13"):
        make_rules(preset, **options)


def test_a_whole_hand_may_still_be_passed() -> None:
    rules = make_rules("partnership", blind_nil=True, blind_nil_pass=13)
    assert rules.blind_nil_pass == rules.hand_size


@pytest.mark.parametrize(("preset", "words"), [
    ("cutthroat", "bid 1 to 13, not 0: nil is not played at this table"),
    ("five-player", "bid 1 to 10, not 0: nil is not played at this table"),
])
def test_bid_zero_with_nil_off_says_nil_is_off(preset: str, words: str) -> None:
    state = new_game(preset, seed=3)
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Bid(0))
    assert str(refused.value) == words
    assert "or" not in str(refused.value).split(":")[0]


def test_a_bid_out_of_range_names_the_range() -> None:
    with pytest.raises(IllegalActionError, match=r"^bid nil or 1 to 13, not 14$"):
        apply(new_game("partnership", seed=3), Bid(14))
    with pytest.raises(IllegalActionError, match=r"^bid 1 to 13, not 14$"):
        apply(new_game("cutthroat", seed=3), Bid(14))
    zero_ok = new_game(make_rules("cutthroat", min_bid=0), seed=3)
    assert apply(zero_ok, Bid(0)).hand.bids[zero_ok.hand.turn] == Bid(0)


def test_new_game_takes_a_preset_name() -> None:
    by_name = new_game("partnership", seed=4)
    assert by_name == new_game(PRESETS["partnership"], seed=4)
    assert new_game("Three Player_Kitty", seed=1).rules is PRESETS["three-player-kitty"]
    with pytest.raises(RulesError, match="unknown preset 'bridge'; presets: partnership"):
        new_game("bridge")
    with pytest.raises(RulesError, match="a Rules value or a preset name such as "
                                         "'partnership', not 4"):
        new_game(4)  # type: ignore[arg-type]


def test_play_takes_card_text() -> None:
    assert Play("AS") == Play(parse_card("AS"))  # type: ignore[arg-type]
    assert Play(" 10h ") == Play(parse_card("TH"))  # type: ignore[arg-type]
    state = new_game("partnership", seed=2)
    for _ in range(4):
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Bid)))
    assert state.hand.phase is Phase.PLAY
    card = next(a.card for a in legal_actions(state) if isinstance(a, Play))
    assert apply(state, Play(str(card))) == apply(state, Play(card))  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["ZZ", 54, -1, 3.0, None])
def test_play_refuses_what_is_not_a_card_and_says_what_to_pass(bad: object) -> None:
    with pytest.raises(IllegalActionError) as refused:
        Play(bad)  # type: ignore[arg-type]
    assert "is not a card" in str(refused.value)
    assert "Play('AS')" in str(refused.value)


def test_new_game_takes_decks_as_card_text() -> None:
    rules = PRESETS["partnership"]
    deck = list(new_game(rules, seed=5).hand.deck)
    text = [str(c) for c in deck]
    assert new_game(rules, decks=[text]).hand == new_game(rules, decks=[deck]).hand


@pytest.mark.parametrize(("deck", "words"), [
    (["AS", "KS"], "the deck of hand 1 must hold the variant's 52 cards once each "
                   "(missing: 2C"),
    (["AS", "AS"], "twice: AS"),
    (["BJ"], "not in this variant's deck: BJ"),
    (["XX"], "'XX' is not a card"),
    ([1.5], "1.5 is not a card: pass Card values or card text such as 'AS'"),
])
def test_a_bad_deck_is_refused_with_a_message(deck: list[object], words: str) -> None:
    with pytest.raises(DeckError) as refused:
        new_game(PRESETS["partnership"], decks=[deck])  # type: ignore[list-item]
    assert words in str(refused.value)


def test_the_readme_warns_of_endless_random_play_and_its_bounded_loop_ends() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    warning = readme.index("may never end on a preset without")
    start = readme.index("```python\n", warning) + len("```python\n")
    code = readme[start:readme.index("```", start)]
    assert "range(" in code, "the README's loop must be bounded"
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["state"].over
