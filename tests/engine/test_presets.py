"""The preset registry: one entry per preset, and every fact a client shows derived from it
(labels, help, house-rule choices and defaults, hand size, seats, sides, partners)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from spades.engine import (
    HOUSE_RULE_NAMES,
    PRESET_HELP,
    PRESETS,
    REGISTRY,
    HouseRuleError,
    Preset,
    Rules,
    RulesError,
    find_entry,
    find_preset,
)
from spades.engine.cards import CARDS
from spades.engine.presets import MERCY_SCORE, TARGETS


def test_the_old_names_read_the_registry() -> None:
    assert list(PRESETS) == list(REGISTRY)
    for name, preset in REGISTRY.items():
        assert PRESETS[name] is preset.rules is find_preset(name)
        assert PRESET_HELP[name] == preset.about
        assert preset.rules.name == name
        assert find_entry(name.upper().replace("-", " ")) is preset


def test_an_entry_with_rules_of_another_name_is_refused() -> None:
    with pytest.raises(RulesError, match="preset 'mine' holds rules named 'partnership'"):
        Preset(name="mine", label="Mine", about="mine", rules=Rules())


@pytest.mark.parametrize("name", list(REGISTRY))
def test_help_is_for_players_and_about_names_the_rulebook(name: str) -> None:
    preset = REGISTRY[name]
    assert preset.label and preset.label[0].isupper()
    assert re.search(r"\((rulebook )?00\d\)", preset.about)
    assert not re.search(r"\(\D*00\d\)", preset.help) and "rulebook" not in preset.help
    assert preset.help[0].isupper()


def test_help_keeps_numbers_that_are_not_rulebooks() -> None:
    assert "blind nil before the first draw (200)" in REGISTRY["two-player"].help


@pytest.mark.parametrize("name", list(REGISTRY))
def test_seats_sides_and_partners_agree(name: str) -> None:
    rules = REGISTRY[name].rules
    n = rules.players
    assert sorted(s for side in rules.sides for s in side) == list(range(n))
    for seat in range(n):
        side = rules.sides[rules.side_of[seat]]
        assert seat in side
        partner = rules.partner_of[seat]
        if rules.partnership:
            assert partner is not None and partner != seat and partner in side
            assert rules.partner_of[partner] == seat
        else:
            assert partner is None and side == (seat,)
    # the draw: each kept card costs one discarded card
    kept = rules.hand_size * 4 if rules.draw else rules.hand_size * n + (1 if rules.kitty else 0)
    assert len(rules.deck) == kept
    assert set(rules.removed) | set(rules.deck) >= set(CARDS[:52])
    assert not set(rules.removed) & set(rules.deck)


def _candidates(rules: Rules, name: str) -> list[Any]:
    if name == "target_score":
        return sorted({*TARGETS, rules.target_score, 1000})
    return [True, False]


def _playable(preset: Preset, name: str, value: Any) -> bool:
    """What the old server did by trial: can a new game take this choice?"""
    choice = {name: value}
    if name == "blind_nil" and value:
        choice["nil"] = True
    if name == "nil" and not value:
        choice["blind_nil"] = False
    try:
        preset.with_house_rules(choice)
    except HouseRuleError:
        return False
    return True


@pytest.mark.parametrize("name", list(REGISTRY))
def test_house_rule_choices_are_exactly_the_playable_ones(name: str) -> None:
    preset = REGISTRY[name]
    offered = {rule.name: rule for rule in preset.house_rules}
    _, defaults = preset.with_house_rules()  # every house rule at its default
    assert set(defaults) == set(HOUSE_RULE_NAMES)
    assert [r.name for r in preset.house_rules] == [n for n in HOUSE_RULE_NAMES if n in offered]
    for rule_name in HOUSE_RULE_NAMES:
        playable = [v for v in _candidates(preset.rules, rule_name)
                    if _playable(preset, rule_name, v)]
        assert defaults[rule_name] in playable, rule_name
        if rule_name in offered:
            rule = offered[rule_name]
            assert list(rule.choices) == playable, rule_name
            assert rule.default == defaults[rule_name] and rule.label and rule.help
        else:
            assert len(playable) == 1, (rule_name, playable)


def test_an_entry_that_breaks_a_limit_would_be_seen() -> None:
    """The derived choices follow ``Rules``' limits: the kitty keeps its jokers fixed,
    suicide its nil, and a plain bid of 0 keeps nil off."""
    assert "jokers" not in {r.name for r in REGISTRY["three-player-kitty"].house_rules}
    assert "nil" not in {r.name for r in REGISTRY["suicide"].house_rules}
    zero = Preset(name="zero", label="Zero", about="zero (001)",
                  rules=Rules(name="zero", nil=False, min_bid=0))
    assert {r.name for r in zero.house_rules} == {"target_score", "bag_penalty", "mercy",
                                                  "jokers", "undo"}
    for rule_name in ("nil", "blind_nil"):
        assert not _playable(zero, rule_name, True)


def test_house_rules_become_engine_options() -> None:
    house = REGISTRY["house"]
    rules, chosen = house.with_house_rules({"target_score": 300, "blind_nil": True,
                                            "bag_penalty": False, "mercy": True,
                                            "jokers": True})
    assert rules == dataclasses.replace(house.rules, target_score=300, blind_nil=True,
                                        bag_limit=None, losing_score=MERCY_SCORE, jokers=True)
    assert chosen == {"target_score": 300, "nil": True, "blind_nil": True,
                      "bag_penalty": False, "mercy": True, "jokers": True, "undo": False}
    cutthroat, _ = REGISTRY["cutthroat"].with_house_rules({"nil": True, "blind_nil": True})
    assert cutthroat.blind_nil and cutthroat.blind_nil_pass == 0  # no partner to pass to
    assert REGISTRY["short"].with_house_rules({"mercy": True})[0] == PRESETS["short"]
    assert REGISTRY["house"].with_house_rules()[0] == PRESETS["house"]


@pytest.mark.parametrize(("name", "choices", "words"), [
    ("house", {"target_score": 1000}, "target_score must be one of 250, 300, 500, not 1000"),
    ("short", {"target_score": 100}, "target_score must be one of 200, 250, 300, 500"),
    ("house", {"target_score": True}, "target_score must be one of"),
    ("house", {"nil": False, "blind_nil": True}, "blind nil needs nil"),
    ("house", {"jokers": "yes"}, "jokers must be true or false, not 'yes'"),
    ("house", {"wild_deuces": True}, "unknown house rule(s): wild_deuces; house rules: "
                                     "target_score, nil"),
    ("three-player-kitty", {"jokers": True},
     "Three players with a kitty cannot be played with these house rules: kitty"),
    ("suicide", {"nil": False}, "Suicide cannot be played with these house rules: suicide"),
])
def test_bad_house_rules_are_refused_with_a_reason(name: str, choices: dict[str, Any],
                                                   words: str) -> None:
    with pytest.raises(HouseRuleError) as refused:
        REGISTRY[name].with_house_rules(choices)
    assert words in str(refused.value)


def test_house_rule_help_uses_the_preset_numbers() -> None:
    def helps(name: str) -> dict[str, str]:
        return {r.name: r.help for r in REGISTRY[name].house_rules}

    house = helps("house")
    assert "behind by 100 points" in house["blind_nil"] and "2 cards go" in house["blind_nil"]
    assert "the two of clubs and the two of diamonds leave" in house["jokers"]
    assert "minus 200 or lower" in house["mercy"]
    two = helps("two-player")
    assert "no penalty" in two["nil"] and "before your first draw" in two["blind_nil"]
    assert "behind by" not in two["blind_nil"] and "partner" not in two["blind_nil"]
    assert "partner" not in helps("cutthroat")["blind_nil"]
    assert "two of hearts and the two of spades leave" in helps("five-player")["jokers"]
    assert "leave" not in helps("three-player")["jokers"]
    assert "the point each of them scored" in helps("online")["bag_penalty"]


def test_allow_undo_is_a_house_rule_off_by_default_in_every_preset() -> None:
    for preset in REGISTRY.values():
        offered = {r.name: r for r in preset.house_rules}
        assert offered["undo"].label == "Allow undo"
        assert offered["undo"].default is False
        rules, chosen = preset.with_house_rules({"undo": True})
        assert rules.undo and chosen["undo"] is True
        assert not preset.with_house_rules()[0].undo
