"""Hard: legal in every variant, blind to hidden cards, reproducible, and right in
hand-built positions where the wrong card costs the hand."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from spades.ai import hard as hard_module
from spades.ai import kernel
from spades.ai.hard import (
    COVER_SHADE,
    CREDIT_SPADES,
    NIL_ATTACK,
    NIL_SAVED,
    NIL_SEARCH,
    NIL_SOLVE_TRICKS,
    SOLVE_TRICKS,
    HardPlayer,
    _fill_bids,
    distinct_cards,
)
from spades.ai.levels import make_player
from spades.ai.reading import nil_reading_of, reading_of
from spades.ai.simple import RandomPlayer
from spades.engine import (
    BLIND_NIL,
    NIL,
    PRESETS,
    Bid,
    Draw,
    Exchange,
    GameState,
    Look,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    apply,
    legal_actions,
    legal_bids,
    make_rules,
    new_game,
    parse_card,
    player_view,
    preset_overrides,
)

FAST = {"iterations": 24}
VARIANTS: list[Rules] = [
    *PRESETS.values(),
    make_rules("house", blind_nil=True, blind_nil_deficit=None),
    make_rules("partnership", first_lead="lowest-club", spades_break="void"),
    make_rules("three-player-kitty", nil=True, first_lead="lowest-club"),
    make_rules("partnership", nil=False, min_bid=2),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}{len(preset_overrides(r))}")
def test_hard_makes_a_legal_choice_at_every_decision(rules: Rules) -> None:
    """A whole hand (two hands for the draw game) with Hard in half the seats: draws, the
    kitty exchange, bids, blind-nil passes and every card."""
    hard = HardPlayer(**FAST)
    other = RandomPlayer()
    rng = random.Random(rules.name)
    state = new_game(rules, seed=f"hard-{rules.name}")
    phases = set()
    while not state.over and len(state.results) < (2 if rules.draw else 1):
        seat = state.hand.turn
        view = player_view(state, seat)
        player = hard if seat % 2 == 0 else other
        action = player.choose(view, rng)
        assert action in view.legal
        if player is hard:
            phases.add(state.phase)
        state = apply(state, action)
    assert Phase.PLAY in phases
    assert Phase.BID in phases or rules.suicide


def test_blind_nil_pass_gives_the_dangerous_cards_and_takes_back_low_ones() -> None:
    rules = make_rules("house", blind_nil=True, blind_nil_deficit=None)
    hard = HardPlayer(**FAST)
    rng = random.Random(2)
    state = new_game(rules, seed=4)
    state = apply(state, BLIND_NIL)  # seat 0 bids blind nil; Hard bids the others
    while state.phase is Phase.BID:
        state = apply(state, hard.choose(player_view(state, state.hand.turn), rng))
    assert state.phase is Phase.PASS and state.hand.turn == 0
    nil_hand = player_view(state, 0).hand
    given = hard.choose(player_view(state, 0), rng)
    assert isinstance(given, PassCards)
    spades = [c for c in nil_hand if c >= parse_card("2S")]
    if spades:
        assert max(spades) in given.cards  # the highest spade leaves the nil hand
    state = apply(state, given)
    partner_hand = player_view(state, 2).hand
    back = hard.choose(player_view(state, 2), rng)
    assert isinstance(back, PassCards)
    plain = sorted((c for c in partner_hand if c < parse_card("2S")), key=lambda c: c % 13)
    assert min(c % 13 for c in back.cards) == plain[0] % 13
    assert all(c < parse_card("2S") for c in back.cards)


def test_never_blind_nil_unless_asked() -> None:
    rules = make_rules("house", blind_nil=True, blind_nil_deficit=None)
    state = new_game(rules, seed=1)
    state = state._replace(scores=(0, 300))
    view = player_view(state, state.hand.turn)
    assert BLIND_NIL in view.legal
    rng = random.Random(0)
    assert HardPlayer(**FAST).choose(view, rng) != BLIND_NIL
    assert HardPlayer(**FAST, blind_nil=True).choose(view, rng) == BLIND_NIL
    even = player_view(state._replace(scores=(0, 0)), state.hand.turn)
    assert HardPlayer(**FAST, blind_nil=True).choose(even, rng) != BLIND_NIL


def _hidden_swapped(state: GameState, a: int, b: int) -> GameState:
    """The same game with one card of seat ``a`` and one of seat ``b`` exchanged, of the
    same suit so that no void shown is contradicted."""
    hands = list(state.hand.hands)
    for suit in range(4):
        mask = ((1 << 13) - 1) << (13 * suit)
        x, y = hands[a] & mask, hands[b] & mask
        if x and y:
            cx, cy = x & -x, y & -y
            hands[a] ^= cx | cy
            hands[b] ^= cx | cy
            return state._replace(hand=state.hand._replace(hands=tuple(hands)))
    raise AssertionError("no suit held by both seats")


@pytest.mark.parametrize("plays", [0, 9])
def test_same_view_same_decision_whatever_the_hidden_cards(plays: int) -> None:
    """Hard decides from the view alone: dealing the hidden cards differently (consistent
    with the view) leaves the view, and the decision for the same seed, unchanged."""
    rules = PRESETS["partnership"]
    rng = random.Random(8)
    state = new_game(rules, seed=8)
    if plays:
        while state.phase is not Phase.PLAY:
            state = apply(state, rng.choice(legal_actions(state)))
        for _ in range(plays):
            state = apply(state, rng.choice(legal_actions(state)))
    seat = state.hand.turn
    a, b = [s for s in range(4) if s != seat][:2]
    other = _hidden_swapped(state, a, b)
    assert other.hand.hands != state.hand.hands
    assert player_view(other, seat) == player_view(state, seat)
    hard = HardPlayer(iterations=150)
    first = hard.choose(player_view(state, seat), random.Random(5))
    second = hard.choose(player_view(other, seat), random.Random(5))
    assert first == second


def test_reproducible_with_a_seed_and_an_iteration_budget() -> None:
    rules = PRESETS["jokers"]
    rng = random.Random(3)
    state = new_game(rules, seed=3)
    while state.phase is not Phase.PLAY:
        state = apply(state, rng.choice(legal_actions(state)))
    for _ in range(6):
        state = apply(state, rng.choice(legal_actions(state)))
    view = player_view(state, state.hand.turn)
    choices = {HardPlayer(iterations=120).choose(view, random.Random(11)) for _ in range(3)}
    assert len(choices) == 1
    assert make_player("hard", iterations=120).choose(view, random.Random(11)) in choices


def test_time_limit_cuts_the_search_short() -> None:
    rules = PRESETS["partnership"]
    view = player_view(new_game(rules, seed=2), 0)
    start = time.perf_counter()
    action = HardPlayer(iterations=10**7, time_limit=0.05).choose(view, random.Random(1))
    assert time.perf_counter() - start < 1.0
    assert action in view.legal


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        HardPlayer(iterations=0)
    with pytest.raises(ValueError):
        HardPlayer(time_limit=-1.0)


def test_draw_keeps_a_high_spade_and_throws_a_low_card() -> None:
    rules = PRESETS["two-player"]
    state = new_game(rules, seed=0)
    hard = HardPlayer(**FAST)
    deck = list(state.hand.deck)
    for card, keep in (("AS", True), ("2C", False)):
        index = deck.index(parse_card(card))
        deck[0], deck[index] = deck[index], deck[0]
        game = new_game(rules, decks=[tuple(deck)])
        game = apply(game, Look(game.hand.turn))  # the drawn card shows once it looks
        view = player_view(game, game.hand.turn)
        assert view.drawn == parse_card(card)
        assert hard.choose(view, random.Random(0)) == Draw(keep)


def test_kitty_exchange_takes_the_unseen_card_with_a_playable_hand() -> None:
    rules = PRESETS["three-player-kitty"]
    for seed in range(20):
        state = new_game(rules, seed=seed)
        if state.phase is Phase.KITTY:
            view = player_view(state, state.hand.turn)
            assert HardPlayer(**FAST).choose(view, random.Random(0)) == Exchange(True)
            return
    pytest.skip("no kitty exchange in the first deals")


def test_bids_nil_with_a_nil_hand_and_counts_a_strong_one() -> None:
    rules = PRESETS["partnership"]
    weak = "2S 3H 4H 5H 2D 3D 4D 6D 2C 3C 4C 6H 7D"
    strong = "AS KS QS JS TS AH KH AD KD AC 5C 7C 8C"
    hard = HardPlayer(iterations=300)
    for hand, check in ((weak, lambda b: b == NIL), (strong, lambda b: b.tricks >= 8)):
        state = _dealt(rules, hand)
        bid = hard.choose(player_view(state, 0), random.Random(1))
        assert isinstance(bid, Bid) and check(bid), (hand, bid)


def test_nils_the_playouts_lose_are_partly_counted_as_made() -> None:
    """The bid playouts guard a nil by rule and lose nils the table makes
    (docs/ai-tuning.md#hard-nil-saved): a lost nil playout is credited ``nil_saved`` of the
    swing. With no credit this hand bids one;
    crediting every lost nil makes nil the bid, so the credit decides marginal nils."""
    rules = PRESETS["partnership"]
    state = _dealt(rules, "2S 8S KH 5H 4H AD 3D 4D 6D 2C 3C QC 7D")
    view = player_view(state, 0)
    bids = {saved: HardPlayer(iterations=300, nil_saved=saved, nil_attack=1.0).choose(
        view, random.Random(1)) for saved in (0.0, 1.0)}
    assert bids[0.0] != NIL and isinstance(bids[0.0], Bid), bids
    assert bids[1.0] == NIL, bids
    assert 0.0 < NIL_SAVED < 0.5  # a share: nils are still lost at the table
    assert HardPlayer().nil_saved == NIL_SAVED


def test_the_opponents_attack_our_nil_only_part_of_the_time() -> None:
    """The bid playouts' opponents lead low at our nil ``nil_attack`` of the time, as the
    table does (docs/ai-tuning.md#hard-nil-attack): the same hand as above, with no credit,
    bids one when they always attack and nil when they attack 30 % of the time. Our own side's
    seats always attack an opponent's nil."""
    rules = PRESETS["partnership"]
    view = player_view(_dealt(rules, "2S 8S KH 5H 4H AD 3D 4D 6D 2C 3C QC 7D"), 0)
    bids = {attack: HardPlayer(iterations=300, nil_saved=0.0, nil_attack=attack).choose(
        view, random.Random(1)) for attack in (1.0, 0.3)}
    assert isinstance(bids[1.0], Bid) and not bids[1.0].nil, bids
    assert bids[0.3] == NIL, bids
    assert HardPlayer(nil_attack=0.3)._attack(view) == (1.0, 0.3, 1.0, 0.3)
    assert HardPlayer(nil_attack=1.0)._attack(view) is None
    assert 0.0 < NIL_ATTACK < 1.0 and HardPlayer().nil_attack == NIL_ATTACK


def test_a_nil_with_four_spades_gets_no_credit_when_told() -> None:
    """The table saves the nils its playouts lose by discarding and covering well, which a
    hand long in spades cannot use: with ``credit_spades`` 4 this four-spade hand, a nil
    when every lost nil playout is credited, bids one; with the credit for all, nil."""
    rules = PRESETS["partnership"]
    view = player_view(_dealt(rules, "2S 4S 6S 8S 9H 5H 2H KD 3D 4D 7C 2C 3C"), 0)
    bids = {spades: HardPlayer(iterations=300, nil_saved=1.0, credit_spades=spades,
                               nil_attack=1.0).choose(view, random.Random(1))
            for spades in (None, 4, 5)}
    assert bids[None] == NIL and bids[5] == NIL, bids
    assert isinstance(bids[4], Bid) and not bids[4].nil, bids
    assert HardPlayer().credit_spades == CREDIT_SPADES


def test_covering_a_partners_nil_bids_under_what_the_playouts_choose() -> None:
    """The partner bid nil first: the playouts overcount the coverer's tricks (covering costs
    tricks they do not charge: docs/ai-tuning.md#hard-cover-shade), so it bids
    ``cover_shade`` under their choice. The same hand after a plain bid is not shaded."""
    rules = PRESETS["partnership"]
    hand = "AS QS 7S 4S AH KH 9H 3H KD 8D 4D 9C 5C"
    for partner, shaded in ((NIL, True), (Bid(3), False)):
        state = _dealt(rules, hand, first_dealer=1)  # seat 2 (the partner) bids first
        state = apply(apply(state, partner), Bid(3))
        view = player_view(state, 0)
        assert view.bids[2] == partner
        plain, cover = (HardPlayer(iterations=300, cover_shade=shade).choose(
            view, random.Random(1)) for shade in (0, COVER_SHADE))
        assert isinstance(plain, Bid) and isinstance(cover, Bid) and not plain.nil
        expected = plain.tricks - COVER_SHADE if shaded else plain.tricks
        assert plain.tricks >= 2 and cover == Bid(expected), (partner, plain, cover)
    assert COVER_SHADE == HardPlayer().cover_shade >= 1


def _dealt(rules: Rules, hand: str, first_dealer: int = 3) -> GameState:
    """A fresh hand where seat 0 (first to bid, with the default dealer) holds ``hand``."""
    mine = [parse_card(c) for c in hand.split()]
    rest = [c for c in rules.deck if c not in mine]
    random.Random(0).shuffle(rest)
    others = [rest[i::3] for i in range(3)]
    deck = [card for four in zip(mine, *others, strict=True) for card in four]
    return new_game(rules, decks=[tuple(deck)], first_dealer=first_dealer)


# ---------------------------------------------------------------------------- scenarios

def _position(hands: list[str], trick: list[str], leader: int, bids: list[Bid],
              tricks: list[int], scores: tuple[int, int] = (0, 0),
              bags: tuple[int, int] = (0, 0)) -> GameState:
    """A hand-built partnership position late in a hand; every card not in a hand or on
    the table has been played."""
    rules = PRESETS["partnership"]
    state = new_game(rules, seed=0)
    masks = tuple(sum(1 << parse_card(c) for c in h.split()) for h in hands)
    on_table = tuple(parse_card(c) for c in trick)
    held = 0
    for mask in masks:
        held |= mask
    played = sum(1 << c for c in rules.deck) & ~held
    hand = state.hand._replace(
        phase=Phase.PLAY, hands=masks, played=played, trick=on_table, leader=leader,
        turn=(leader + len(on_table)) % 4, bids=tuple(bids), tricks=tuple(tricks),
        broken=True, history=())
    return state._replace(hand=hand, scores=scores, bags=bags)


def _hard_card(state: GameState) -> str:
    view = player_view(state, 0)
    action = HardPlayer(iterations=400).choose(view, random.Random(1))
    assert isinstance(action, Play)
    return str(action.card)


def test_covers_a_partners_nil() -> None:
    """Partner (nil) had to play the king of hearts; the ace over it saves the nil."""
    state = _position(["AH 3H", "4D", "2C", "9S"], ["2H", "KH", "5H"], leader=1,
                      bids=[Bid(4), Bid(3), NIL, Bid(3)], tricks=[6, 3, 0, 2])
    assert _hard_card(state) == "AH"


def test_does_not_trump_a_partners_sure_winner() -> None:
    """Partner's king of hearts is boss; trumping it with the ace of spades would waste the
    trick the side needs later for its bid of eight."""
    state = _position(["AS 2D 3D", "QD KD", "5C 6C", "JD TD"], ["4H", "KH", "6H"],
                      leader=1, bids=[Bid(4), Bid(2), Bid(4), Bid(2)], tricks=[3, 3, 3, 1])
    assert _hard_card(state) in ("2D", "3D")


def test_ducks_when_a_bag_would_cost_a_hundred() -> None:
    """Both sides have made their bids and Hard's side holds nine bags: winning with the
    king would be the tenth."""
    state = _position(["KH 3H", "2C", "4C", "AS"], ["5H", "2H", "7H"], leader=1,
                      bids=[Bid(3), Bid(2), Bid(3), Bid(2)], tricks=[4, 3, 2, 2],
                      bags=(9, 0))
    assert _hard_card(state) == "3H"


def test_draws_trumps_to_set_opponents_one_trick_from_the_game() -> None:
    """The opponents (450) need one more trick to make five and win the game: cashing the
    ace of spades first pulls the king wherever it is, and the queen takes the last trick;
    the queen first loses to the king whenever an opponent holds it."""
    state = _position(["AS QS", "KS 3D", "AH 2D", "5C 6C"], [], leader=0,
                      bids=[Bid(3), Bid(3), Bid(3), Bid(2)], tricks=[4, 2, 3, 2],
                      scores=(420, 450))
    assert _hard_card(state) == "AS"


def test_distinct_cards_keeps_one_of_touching_cards() -> None:
    state = _position(["9H TH QH 2C", "JH", "3C", "4C"], [], leader=0,
                      bids=[Bid(3)] * 4, tricks=[3, 3, 3, 0])
    view = player_view(state, 0)
    kept = {str(c) for c in (distinct_cards(view))}
    assert kept == {"9H", "QH", "2C"}


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}{len(preset_overrides(r))}")
def test_the_bids_hard_imagines_for_other_seats_are_legal(rules: Rules) -> None:
    """On a sampled deal Hard fills in the bids of the seats still to bid from what their
    hand looks worth: each one is a bid the engine's ``legal_bids`` allows that seat, given
    its partner's (real or imagined) bid, whatever the guess."""
    rng = random.Random(rules.name)
    for seed in range(6):
        state = new_game(rules, seed=seed)
        while state.phase is not Phase.BID:
            state = apply(state, rng.choice(legal_actions(state)))
        view = player_view(state, state.hand.turn)
        n = rules.players
        for _ in range(30):
            reads = [(rng.uniform(-2.0, rules.hand_size + 3.0), rng.random())
                     for _ in range(n)]
            mine = rng.choice([a for a in view.legal if isinstance(a, Bid) and not a.blind])
            draws = [rng.random() for _ in range(n)]
            bids, nils = _fill_bids(view, reads, mine, reading_of(rules),
                                    nil_reading_of(rules), draws)
            chosen = [NIL if nils[s] else Bid(bids[s]) for s in range(n)]
            turn = [(s - view.dealer - 1) % n for s in range(n)]  # the bidding order
            for seat in range(n):
                if view.bids[seat] is not None or seat == view.seat:
                    continue
                partner = rules.partner_of[seat]
                before = None
                if partner is not None and (view.bids[partner] is not None
                                            or partner == view.seat
                                            or turn[partner] < turn[seat]):
                    before = chosen[partner]  # the partner bid first (for real or here)
                assert chosen[seat] in legal_bids(rules, before), (seat, chosen, reads)
                if nils[seat] and not rules.suicide:
                    assert before is None or not before.nil  # no nil beside a nil


def test_habitual_plays_the_card_of_the_suit_worth_the_same() -> None:
    """Of cards of one suit worth the same within the tolerance, the lowest is played (a
    live nil bidder's: the highest); a card of another suit or a clearly worse one is not."""
    from spades.ai.hard import _MoveSearch

    two, nine, king, club = (int(parse_card(c)) for c in ("2H", "9H", "KD", "2C"))

    def search(values: dict[int, float]) -> _MoveSearch:
        moves = sorted(values)
        found = _MoveSearch(moves)
        for _ in range(5):
            found.add([values[m] for m in moves])
        return found

    close = search({two: 10.0, nine: 10.3, king: 5.0})
    assert close.best() == nine
    assert close.habitual(0.5) == two
    assert close.habitual(0.2) == nine
    ducking = search({two: 10.3, nine: 10.0, king: 5.0})
    assert ducking.habitual(0.5, highest=True) == nine
    assert ducking.habitual(0.5) == two
    assert search({club: 10.2, nine: 10.3}).habitual(0.5) == nine


def test_follows_with_the_lowest_loser_and_a_nil_with_the_highest() -> None:
    """Behind the ace of hearts Hard's 9 and 2 both lose: short of its bid it keeps the 9
    (it may take a heart later); bidding nil it keeps the 2 (to duck a heart later)."""
    hands = ["9H 2H 5C 6C", "3H 7C 8C 9C", "4H KC QC JC", "TC 2D 3D"]
    plain = _position(hands, ["AH"], leader=3, bids=[Bid(3)] * 4, tricks=[2, 3, 2, 2])
    assert _hard_card(plain) == "2H"
    nil = _position(hands, ["AH"], leader=3, bids=[NIL, Bid(3), Bid(5), Bid(3)],
                    tricks=[0, 3, 4, 2])
    assert _hard_card(nil) == "9H"


def test_trust_and_tolerance_are_checked() -> None:
    with pytest.raises(ValueError, match="trust"):
        HardPlayer(trust=1.0)
    with pytest.raises(ValueError, match="tolerance"):
        HardPlayer(tolerance=-0.5)
    with pytest.raises(ValueError, match="nil_solve_tricks must not be negative"):
        HardPlayer(nil_solve_tricks=-1)
    with pytest.raises(ValueError, match="solve_deals must be at least 1"):
        HardPlayer(solve_deals=0)
    with pytest.raises(ValueError, match="nil_search must be positive"):
        HardPlayer(nil_search=0.0)
    with pytest.raises(ValueError, match="credit_spades must be at least 1"):
        HardPlayer(credit_spades=0)
    for attack in (-0.1, 1.5):
        with pytest.raises(ValueError, match="nil_attack must be from 0 to 1"):
            HardPlayer(nil_attack=attack)


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """One entry per call of ``module.name`` (counted, then called)."""
    calls: list[int] = []
    real = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.fixture
def solve_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per exact solve Hard makes (``hard.solve``)."""
    return _counted(monkeypatch, hard_module, "solve")


def _six_left_with_a_nil(nil_seat: int, taken: int) -> PlayerView:
    """Seat 0's view with six tricks left and a nil bid at ``nil_seat``, ``taken`` tricks
    (0: alive; 1: broken)."""
    bids = [Bid(3), Bid(2), Bid(4), Bid(2)]
    bids[nil_seat] = NIL
    tricks = [3, 1, 1, 2]
    tricks[nil_seat] = taken
    tricks[3] += 1 - taken
    state = _position(["AS 9H 8H 3D 7C 6C", "KH 5H 4D 2D 5C 3C", "QS JS TH 9D 8C 4C",
                       "KS 7S QH JH 6D 5D"], [], leader=0, bids=bids, tricks=tricks)
    return player_view(state, 0)


@pytest.mark.parametrize(("nil_seat", "taken", "exact"), [
    (1, 0, True),  # an opponent's nil alive: one card may set it
    (1, 1, False),  # the opponent's nil is broken
    (2, 0, False),  # the partner's nil: the playouts as before
])
def test_solves_more_tricks_exactly_while_an_opponents_nil_is_alive(
        solve_calls: list[int], nil_seat: int, taken: int, exact: bool) -> None:
    """Six tricks left: while an opponent's nil is alive the exact search replaces the
    playouts from ``nil_solve_tricks`` tricks left; otherwise only from ``solve_tricks``."""
    view = _six_left_with_a_nil(nil_seat, taken)
    assert max(view.hand_sizes) == 6 > SOLVE_TRICKS and sum(view.tricks) == 7
    action = HardPlayer(iterations=60, nil_solve_tricks=6).choose(view, random.Random(1))
    assert isinstance(action, Play) and action in view.legal
    assert bool(solve_calls) == exact, solve_calls
    solve_calls.clear()
    HardPlayer(iterations=60).choose(view, random.Random(1))  # the default: as deep as ever
    assert HardPlayer().nil_solve_tricks == NIL_SOLVE_TRICKS == SOLVE_TRICKS and not solve_calls


@pytest.mark.parametrize("cap", [None, 3])
def test_solve_deals_caps_the_deals_solved_in_one_decision(
        solve_calls: list[int], cap: int | None) -> None:
    """Four tricks left, each sampled deal solved exactly: ``solve_deals`` stops the search
    after that many; without it the budget decides (60 playouts, 5 a move solved)."""
    state = _position(["AS 9H 8H 3D", "KH 5H 4D 2D", "QS JS TH 9D", "KS 7S QH JH"], [],
                      leader=0, bids=[Bid(3), Bid(2), Bid(4), Bid(2)], tricks=[3, 2, 2, 2])
    view = player_view(state, 0)
    assert max(view.hand_sizes) == 4 == SOLVE_TRICKS
    action = HardPlayer(iterations=60, solve_deals=cap).choose(view, random.Random(1))
    assert isinstance(action, Play) and action in view.legal
    if cap is None:
        assert len(solve_calls) > 3, solve_calls
    else:
        assert len(solve_calls) == cap, solve_calls


@pytest.fixture
def playouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per rule-guided playout Hard plays (``kernel.guided_playout``)."""
    return _counted(monkeypatch, kernel, "guided_playout")


@pytest.mark.parametrize(("nil_seat", "taken", "longer"), [
    (2, 0, True),  # the partner's nil alive
    (1, 0, True),  # an opponent's
    (2, 1, False),  # the partner's nil is broken
])
def test_searches_longer_while_a_nil_is_alive(playouts: list[int], nil_seat: int,
                                              taken: int, longer: bool) -> None:
    """Six tricks left, so the playouts decide: ``nil_search`` times the budget while a nil
    at the table is alive, the budget alone once it is broken."""
    view = _six_left_with_a_nil(nil_seat, taken)
    assert max(view.hand_sizes) == 6 > NIL_SOLVE_TRICKS
    action = HardPlayer(iterations=40, nil_search=4.0).choose(view, random.Random(1))
    assert isinstance(action, Play) and action in view.legal
    if longer:
        assert 150 <= len(playouts) <= 160 + 6, len(playouts)
    else:
        assert 35 <= len(playouts) <= 40 + 6, len(playouts)
    playouts.clear()
    HardPlayer(iterations=40).choose(view, random.Random(1))  # the default budget
    assert len(playouts) <= round(40 * NIL_SEARCH) + 6, len(playouts)

