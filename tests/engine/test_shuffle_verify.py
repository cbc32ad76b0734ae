"""Verifying shuffles (docs/shuffle.md): verify_record's verdicts and messages, salts, and the
projection of the shuffle facts a seat may learn: commitments before the deal, the seed and
salt of a hand only once it is over."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from spades.engine import (
    COMMIT,
    NAME_OF,
    PRESETS,
    Revealed,
    Secrets,
    Shuffle,
    add_entropy,
    apply,
    check_shuffle,
    commitment,
    events,
    hand_commitment,
    hand_salt,
    hand_seed,
    legal_actions,
    load_record,
    new_game,
    new_salt,
    parse_card,
    player_view,
    record_of,
    seat_record,
    shuffle_news,
    shuffled,
    verify_record,
)


def _game(seed: str = "verify", hands: int = 2) -> Any:
    state = new_game(PRESETS["partnership"], seed=seed)
    state = add_entropy(state, 1, ["carol"])
    rng = random.Random(11)
    while len(state.results) < hands:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_an_honest_record_verifies_hand_by_hand() -> None:
    checks = verify_record(record_of(_game(), reveal=True))
    assert [c.status for c in checks] == ["verified", "verified", "not revealed"]
    assert [c.message() for c in checks][:2] == ["hand 1: shuffle verified",
                                                 "hand 2: shuffle verified"]
    assert all(c.ok for c in checks)


def test_the_deck_message_names_the_position_and_both_cards() -> None:
    data = record_of(_game(), reveal=True)
    hand = data["hands"][1]
    expected = hand["deck"][16]
    other = next(i for i in range(16 % 4, 52, 4) if i != 16)  # the same seat's card
    hand["deck"][16], hand["deck"][other] = hand["deck"][other], hand["deck"][16]
    check = verify_record(data)[1]
    assert check.status == "mismatch" and not check.ok
    first = min(16, other)
    want = NAME_OF[parse_card(expected if first == 16 else hand["deck"][16])]
    got = NAME_OF[parse_card(hand["deck"][first])]
    assert check.message() == (f"hand 2: the deck does not match the revealed seed: card "
                               f"{first + 1} should be the {want}, the record says the {got}")


def test_each_check_fails_on_its_own_tampering() -> None:
    data = record_of(_game(), reveal=True)
    cases = {
        "commitment": lambda h: h.update(commitment="ab" * 32),
        "salt": lambda h: h.update(salt="0" * 32),
        "seed": lambda h: h.update(seed=h["seed"][::-1]),
        "entropy": lambda h: h.update(entropy=[]),
        "deck": lambda h: h.update(deck=h["deck"][4:5] + h["deck"][1:4] + h["deck"][0:1]
                                   + h["deck"][5:]),
    }
    expected = {"commitment": {"commitment"}, "salt": {"commitment"},
                "seed": {"commitment", "deck"}, "entropy": {"deck"}, "deck": {"deck"}}
    for name, edit in cases.items():
        bad = copy.deepcopy(data)
        edit(bad["hands"][1])
        check = verify_record(bad)[1]
        assert {p.check for p in check.problems} == expected[name], name


def test_a_deck_that_breaks_the_plays_is_a_cards_mismatch() -> None:
    data = record_of(_game(), reveal=True)
    for key in ("seed", "salt", "commitment", "commitment_scheme"):
        del data["hands"][0][key]
    deck = data["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]  # two seats' cards: the plays no longer fit
    check = verify_record(data)[0]
    assert check.status == "mismatch"
    assert [p.check for p in check.problems] == ["cards"]
    assert "do not fit the deck" in check.problems[0].message


def test_the_first_unsalted_scheme_still_verifies() -> None:
    data = record_of(_game(), reveal=True)
    hand = data["hands"][0]
    del hand["salt"], hand["commitment_scheme"]
    hand["commitment"] = commitment(hand["seed"])
    assert verify_record(data)[0].status == "verified"
    load_record(data)  # and a reader takes it
    hand["commitment_scheme"] = COMMIT  # a salted scheme without its salt
    assert "salt of the commitment is missing" in verify_record(data)[0].message()


def test_salts() -> None:
    assert len(hand_salt("g", 0)) == 32
    assert hand_salt("g", 0) != hand_salt("g", 1) != hand_salt("h", 1)
    assert hand_salt("g", 0) not in hand_seed("g", 0)
    assert new_salt(lambda bits: 5) == "0" * 31 + "5"
    assert len(new_salt(random.Random(1).getrandbits)) == 32
    seed = hand_seed("g", 0)
    assert hand_commitment("g", 0) == commitment(seed, hand_salt("g", 0)) != commitment(seed)


def test_check_shuffle_without_a_deck_or_seed() -> None:
    cards = PRESETS["partnership"].deck
    assert check_shuffle(cards, None, Revealed(commitment="00")) == []
    revealed = Revealed(commitment=commitment("s", "t"), seed="s", salt="t")
    assert check_shuffle(cards, None, revealed) == []
    assert check_shuffle(cards, shuffled(cards, "s"), revealed) == []


def _secrets_of(state: Any, number: int) -> tuple[str, str]:
    return hand_seed(state.seed, number), hand_salt(state.seed, number)


def test_no_projection_holds_a_seed_or_salt_before_its_hand_is_over() -> None:
    """Play a game; after every action, every projection for every seat (the view, the events,
    the downloadable record, the shuffle news) holds no seed or salt of a hand not finished,
    while the news reveals each finished hand's seed and salt."""
    state = new_game(PRESETS["partnership"], seed="no-peeking")
    rng = random.Random(2)
    checked = 0
    while len(state.results) < 3 and not state.over:
        before = state
        if rng.random() < 0.05 and state.hand.number + 1 >= len(state.decks):
            state = add_entropy(state, state.hand.number + 1, [f"e{checked}"])
        state = apply(state, rng.choice(legal_actions(state)))
        news = shuffle_news(state)
        unfinished = range(len(state.results), len(state.results) + 3)
        secrets = [s for n in unfinished for s in _secrets_of(state, n)]
        for seat in range(state.rules.players):
            shown = [json.dumps(news), repr(player_view(state, seat)),
                     repr(events(before, state, seat)), json.dumps(seat_record(state, seat))]
            for text in shown:
                assert not any(secret in text for secret in secrets), (checked, seat)
        committed = {c["hand"]: c for c in news["committed"]}
        assert committed[state.hand.number]["commitment"] == hand_commitment(
            state.seed, state.hand.number)
        assert state.hand.number + 1 in committed
        assert [r["hand"] for r in news["revealed"]] == list(range(len(state.results)))
        for r in news["revealed"]:
            assert (r["seed"], r["salt"]) == _secrets_of(state, r["hand"])
            assert commitment(r["seed"], r["salt"]) == r["commitment"]
        checked += 1
    assert checked > 100


def test_news_entropy_and_revealed_hands_verify() -> None:
    state = _game()
    news = shuffle_news(state)
    assert news["revealed"][1]["entropy"] == ["carol"]
    rules = state.rules
    for r, result in zip(news["revealed"], state.results, strict=True):
        revealed = Revealed(commitment=r["commitment"], seed=r["seed"], salt=r["salt"],
                            entropy=tuple(r["entropy"]), scheme=r["commitment_scheme"])
        assert check_shuffle(rules.deck, result.deck, revealed) == []


def test_given_decks_and_the_old_shuffle_have_no_commitments() -> None:
    rules = PRESETS["partnership"]
    old = new_game(rules, seed="old", shuffle=Shuffle(version=1))
    assert shuffle_news(old) == {"committed": [], "revealed": []}
    given = new_game(rules, seed="given", decks=[list(rules.deck)])
    assert [c["hand"] for c in shuffle_news(given)["committed"]] == [1]


def test_a_download_reveals_finished_hands_only_and_verifies() -> None:
    state = _game()
    for seat in range(state.rules.players):
        download = seat_record(state, seat)
        finished, in_play = download["hands"][:2], download["hands"][2]
        assert [h["seed"] for h in finished] == [hand_seed(state.seed, n) for n in (0, 1)]
        assert "seen" in in_play and "seed" not in in_play and "salt" not in in_play
        checks = verify_record(download)
        assert [c.status for c in checks] == ["verified", "verified", "not revealed"]


def test_the_news_from_a_memo_is_the_news_made_afresh_and_a_memo_never_mixes_games() -> None:
    """``shuffle_news`` with a memo (the session keeps one, shared by a game's snapshots)
    says exactly what it says without one, at every step; one memo shared by two games
    with other seeds gives each its own commitments, never the other's."""
    memo: Secrets = {}
    first, second = _game("memo-a", hands=0), _game("memo-b", hands=0)
    rng = random.Random(5)
    hashed = 0
    while len(first.results) < 3:
        before = len(memo)
        assert shuffle_news(first, memo) == shuffle_news(first)
        assert shuffle_news(second, memo) == shuffle_news(second)
        hashed += len(memo) - before
        first = apply(first, rng.choice(legal_actions(first)))
        second = apply(second, rng.choice(legal_actions(second)))
    # each game's hands derived once: hands 0-3 of two games, never again per step
    assert hashed == len(memo) == 8
    assert {seed for seed, _ in memo} == {str(first.seed), str(second.seed)}
