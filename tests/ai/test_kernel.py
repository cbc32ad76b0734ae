"""The playout kernel agrees with the engine: legal plays, spades broken, trick winners,
hand scores and the end of the game, over many random hands of every preset and option; and
its lean inline loops agree with the engine's laws (``spades.engine.laws``) under every
preset and every ``spades_break`` rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.ai import kernel as k
from spades.ai import native, tricks
from spades.engine import (
    ABOVE,
    FIRST_SPADE,
    NON_SPADES_MASK,
    PRESETS,
    RANK_OF,
    SPADES_MASK,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Bid,
    GameState,
    Phase,
    Play,
    Rules,
    apply,
    apply_bags,
    breaks_spades,
    first_lead,
    game_end,
    legal_actions,
    legal_plays,
    make_rules,
    new_game,
    parse_card,
    preset_overrides,
    score_hand,
    trick_winner,
)
from spades.engine.cards import CARDS

VARIANTS: list[Rules] = [
    *PRESETS.values(),
    *(make_rules("partnership", spades_break=b) for b in ("any-spade", "void")),
    *(make_rules("partnership", failed_nil=f) for f in ("bags", "penalty-void")),
    make_rules("partnership", bag_takeback=True, bag_limit=5, blind_nil=True),
    make_rules("partnership", set_scoring="zero", first_lead="lowest-club"),
    make_rules("jokers", spades_break="void", first_lead="lowest-club"),
    make_rules("cutthroat", moon_value=200, spades_break="any-spade"),
    make_rules("three-player-kitty", first_lead="lowest-club", spades_break="void"),
    make_rules("five-player", spades_break="void", bag_limit=None),
    make_rules("two-player", spades_break="offsuit", failed_nil="penalty-bags"),
    make_rules("house", blind_nil=True, blind_nil_deficit=None),
]


#: Every preset under every spades_break rule, half of them with the lowest club leading.
EVERY: list[Rules] = [
    PRESETS[name].with_options(spades_break=mode,
                               first_lead="lowest-club" if i % 2 else "left-of-dealer")
    for i, (name, mode) in enumerate(
        (name, mode) for name in sorted(PRESETS) for mode in ("offsuit", "any-spade", "void"))
]


def _ids(rules: Rules) -> str:
    return f"{rules.name}:{','.join(f'{k}={v}' for k, v in preset_overrides(rules).items())}"


def _kernel_position(state: GameState) -> k.Position:
    hand = state.hand
    n = state.rules.players
    bids = [b.tricks if b is not None else 0 for b in hand.bids]
    nils = [(k.BLIND if b.blind else k.NIL) if b is not None and b.nil else k.PLAIN
            for b in hand.bids]
    return k.Position(hands=hand.hands, leader=hand.leader, trick=hand.trick,
                      broken=hand.broken, tricks=hand.tricks, played=hand.played,
                      first=not hand.history, bids=bids, nils=nils, players=n)


def _to_play(state: GameState, rng: random.Random) -> GameState:
    """Random non-play actions (draw, kitty, bids, passes) until the cards are played."""
    while not state.over and state.phase is not Phase.PLAY:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("rules", VARIANTS, ids=_ids)
def test_kernel_follows_the_engine_card_by_card(rules: Rules) -> None:
    rng = random.Random(rules.name)
    book = k.rulebook_of(rules)
    hands_checked = 0
    state = new_game(rules, seed=f"kernel-{_ids(rules)}")
    while hands_checked < 12 and not state.over:
        state = _to_play(state, rng)
        if state.over:
            break
        pos = _kernel_position(state)
        number = state.hand.number
        bags_before = state.bags
        scores_before = state.scores
        while not state.over and state.hand.number == number and state.phase is Phase.PLAY:
            legal = legal_actions(state)
            want = 0
            for action in legal:
                assert isinstance(action, Play)
                want |= 1 << action.card
            assert k.legal_mask(book, pos) == want
            assert pos.turn == state.hand.turn
            card = rng.choice(legal)
            assert isinstance(card, Play)
            state = apply(state, card)
            k.play(book, pos, card.card)
            if state.hand.number == number and not state.over:
                assert pos.broken == state.hand.broken
                assert pos.tricks == list(state.hand.tricks)
                assert pos.leader == state.hand.leader
        result = state.results[-1]
        assert pos.over
        assert tuple(pos.tricks) == result.tricks
        bids = [b.tricks for b in result.bids]
        nils = [(k.BLIND if b.blind else k.NIL) if b.nil else k.PLAIN for b in result.bids]
        points, bags = k.hand_points(book, bids, nils, pos.tricks, bags_before)
        assert tuple(points) == result.score.points
        assert tuple(bags) == result.score.bags
        totals = [s + p for s, p in zip(scores_before, points, strict=True)]
        over, winner = k.game_result(book, totals, pos.tricks)
        assert over == state.over
        assert (winner if over else None) == state.winner
        hands_checked += 1
    assert hands_checked >= 1


@pytest.mark.parametrize("rules", VARIANTS, ids=_ids)
def test_kernel_scores_like_the_engine(rules: Rules) -> None:
    """Random bids (nil, blind nil, a moon), tricks and bags: the same points and bags."""
    rng = random.Random(f"score-{_ids(rules)}")
    book = k.rulebook_of(rules)
    n = rules.players
    sides = len(rules.sides)
    for _ in range(400):
        bids: list[Bid] = []
        for _seat in range(n):
            roll = rng.random()
            if roll < 0.15:
                bids.append(Bid(0, nil=True, blind=roll < 0.05))
            elif roll < 0.25:
                bids.append(Bid(rules.hand_size))
            else:
                bids.append(Bid(rng.randint(0, rules.hand_size)))
        cuts = sorted(rng.randint(0, rules.hand_size) for _ in range(n - 1))
        bounds = [0, *cuts, rules.hand_size]
        tricks = [bounds[i + 1] - bounds[i] for i in range(n)]
        rng.shuffle(tricks)
        bags = [rng.randint(0, 12) for _ in range(sides)]
        scores = [rng.randint(-300, 600) for _ in range(sides)]
        want = score_hand(rules, bids, tricks, scores, bags)
        points, after = k.hand_points(
            book, [b.tricks for b in bids],
            [(k.BLIND if b.blind else k.NIL) if b.nil else k.PLAIN for b in bids], tricks, bags)
        assert tuple(points) == want.points
        assert tuple(after) == want.bags
        over, winner = k.game_result(book, list(want.scores), tricks)
        want_over, want_winner = game_end(rules, want)
        assert over == want_over
        assert (winner if over else None) == want_winner


@pytest.mark.parametrize("rules", EVERY, ids=_ids)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, 4))
def test_kernel_play_follows_the_laws(rules: Rules, seed: int, start: int) -> None:
    """Card by card through a random hand: the kernel's legal cards are the laws' legal
    plays (the first lead included), its inline spades-breaking and trick-winner updates in
    ``play`` are ``breaks_spades`` and ``trick_winner``."""
    book = k.rulebook_of(rules)
    n = rules.players
    rng = random.Random(seed)
    hands = k.deal(book, rng)
    dealt = hands[:]
    leader = start % n
    pos = k.Position(hands=hands, leader=leader, tricks=[0] * n, bids=[1] * n,
                     nils=[k.PLAIN] * n, players=n)
    broken = False
    first = True
    tricks = [0] * n
    table: list[int] = []
    while not pos.over:
        held = pos.hands[pos.turn]
        led = table[0] if table else None
        opening = first_lead(rules, dealt) if first and led is None else 0
        legal = legal_plays(held, led, broken, opening)
        assert k.legal_mask(book, pos) == legal
        card = rng.choice(k.cards_of(legal))
        broken = broken or breaks_spades(rules.spades_break, led, card)
        k.play(book, pos, card)
        table.append(card)
        assert pos.broken == broken
        if len(table) == n:
            winner = trick_winner(table, leader, n)
            tricks[winner] += 1
            assert pos.leader == pos.turn == winner
            leader = winner
            table = []
            first = False
        else:
            assert pos.win_seat == (leader + _index_of_winner(table)) % n
            assert pos.win_card == table[_index_of_winner(table)]
        assert pos.tricks == tricks
    assert sum(tricks) == rules.hand_size


def _index_of_winner(table: list[int]) -> int:
    """Which card of an unfinished trick is winning it (``trick_winner`` on the cards so far,
    as a trick of that many seats led from seat 0)."""
    return trick_winner(table, 0, len(table))


@pytest.mark.parametrize("solver", [pytest.param(native.pure("tricks"), id="pure"),
                                    pytest.param(tricks, id="in-use")])
def test_the_trick_solvers_card_tables_are_the_engines(solver: ModuleType) -> None:
    """The double-dummy solver keeps its own copies of the card tables (module constants,
    read in its innermost loops): each is the engine's."""
    assert solver._SPADE == FIRST_SPADE
    assert solver._SPADES == SPADES_MASK
    assert solver._NON_SPADES == NON_SPADES_MASK
    assert solver._SUITS == SUIT_MASKS
    assert solver._SUIT_OF == SUIT_OF
    assert solver._SUIT_MASK_OF == SUIT_MASK_OF
    assert solver._ABOVE == ABOVE
    assert solver._RANK == tuple(rank - 2 for rank in RANK_OF) == k.RANK
    assert (solver._OFFSUIT, solver._ANY_SPADE, solver._VOID) == (
        k.BREAK_OFFSUIT, k.BREAK_ANY_SPADE, k.BREAK_VOID)


@pytest.mark.parametrize("rules", VARIANTS, ids=_ids)
def test_the_kernels_figures_of_the_rules_are_the_engines(rules: Rules) -> None:
    """What the kernel reads off the rules once: a bag's share of the penalty is what the
    engine charges a side whose bags reach the limit, shared among them; the top spade is
    the deck's."""
    book = k.rulebook_of(rules)
    if rules.bag_limit is None:
        assert book.bag_share == 0.0 and not book.bags_cost
    else:
        penalty, left = apply_bags(rules, 0, rules.bag_limit)
        assert left == 0
        assert book.bag_share * rules.bag_limit == pytest.approx(-penalty)
        assert book.bags_cost == (penalty < 0)
    assert book.top_spade == max(int(c) for c in rules.deck)
    assert SUIT_OF[book.top_spade] == SUIT_OF[FIRST_SPADE]


def _laws_playout(rules: Rules, hands: list[int], leader: int, table: list[int],
                  broken: bool, first: bool, opening: int,
                  rnd: Callable[[], float]) -> tuple[list[int], bool]:
    """A hand played out by the engine's laws alone, each card drawn as ``random_card``
    draws it from the legal plays: (tricks per seat, spades broken)."""
    n = rules.players
    tricks = [0] * n
    table = table[:]
    while any(hands):
        seat = (leader + len(table)) % n
        led = table[0] if table else None
        must = opening if first and led is None else 0
        card = k.random_card(legal_plays(hands[seat], led, broken, must), rnd)
        broken = broken or breaks_spades(rules.spades_break, led, card)
        hands[seat] ^= 1 << card
        table.append(card)
        if len(table) == n:
            leader = trick_winner(table, leader, n)
            tricks[leader] += 1
            table = []
            first = False
    return tricks, broken


@pytest.mark.parametrize("rules", EVERY, ids=_ids)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, 4), cards=st.integers(0, 60),
       stack=st.booleans())
def test_random_playout_follows_the_laws(rules: Rules, seed: int, start: int, cards: int,
                                         stack: bool) -> None:
    """``random_playout`` (its ``random_trick``) writes legal plays, spades breaking and the
    trick winner inline for speed: from a random position (``cards`` played at random, any
    trick on the table; with ``stack`` the first leader dealt the spades, so that spades are
    led from hands of nothing else), fed the same random numbers as a playout by the
    engine's laws, it takes the same tricks and breaks spades alike."""
    book = k.rulebook_of(rules)
    n = rules.players
    rng = random.Random(seed)
    hands = k.deal(book, rng)
    leader = start % n
    if stack:
        dealt = k.cards_of(sum(hands))
        rest = [c for c in dealt if c < FIRST_SPADE]
        rng.shuffle(rest)
        hands = [0] * n
        for index, card in enumerate([c for c in dealt if c >= FIRST_SPADE] + rest):
            hands[(leader + index // rules.hand_size) % n] |= 1 << card
    opening = first_lead(rules, hands)
    table: list[int] = []
    broken = False
    first = True
    for _ in range(cards % (rules.hand_size * n)):
        seat = (leader + len(table)) % n
        led = table[0] if table else None
        must = opening if first and led is None else 0
        card = rng.choice(k.cards_of(legal_plays(hands[seat], led, broken, must)))
        broken = broken or breaks_spades(rules.spades_break, led, card)
        hands[seat] ^= 1 << card
        table.append(card)
        if len(table) == n:
            leader = trick_winner(table, leader, n)
            table = []
            first = False
    done = cards % (rules.hand_size * n) // n
    pos = k.Position(hands=hands, leader=leader, trick=table, broken=broken,
                     tricks=[0] * n, first=first, bids=[1] * n, nils=[k.PLAIN] * n,
                     players=n)
    want = _laws_playout(rules, hands[:], leader, table, broken, first, opening,
                         random.Random(seed).random)
    got = k.random_playout(book, pos, random.Random(seed).random)
    assert (got, pos.broken) == want
    assert sum(got) == rules.hand_size - done


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_hands_are_complete_and_legal(name: str) -> None:
    """The benchmark's random hand: every card played once, every trick counted."""
    book = k.rulebook_of(PRESETS[name])
    rng = random.Random(name)
    for _ in range(200):
        tricks, points = k.random_hand(book, rng)
        assert sum(tricks) == book.hand_size
        assert len(points) == len(book.sides)


@pytest.mark.parametrize("rules", EVERY, ids=_ids)
def test_inlined_random_playout_plays_like_the_checked_path(rules: Rules) -> None:
    """The benchmark's inlined playout draws the same card as ``random_card(legal_mask)``
    and collects tricks like ``play`` (both checked against the engine above): fed the same
    random numbers from the same position, both end with the same tricks, holdings and
    spades-broken flag."""
    book = k.rulebook_of(rules)
    for seed in range(25):
        rng = random.Random(seed)
        state = _to_play(new_game(rules, seed=seed), rng)
        if state.over:
            continue
        for _ in range(rng.randrange(0, 2 * rules.players)):  # sometimes mid-trick
            state = apply(state, rng.choice(legal_actions(state)))
        fast = _kernel_position(state)
        slow = fast.copy()
        k.random_playout(book, fast, random.Random(seed).random)
        rnd = random.Random(seed).random
        while not slow.over:
            k.play(book, slow, k.random_card(k.legal_mask(book, slow), rnd))
        assert fast.tricks == slow.tricks
        assert fast.broken == slow.broken
        assert fast.hands == slow.hands == [0] * rules.players
        assert fast.played == slow.played
        assert sum(fast.tricks) == rules.hand_size


def test_evaluator_prefers_making_the_bid_and_the_win() -> None:
    rules = PRESETS["partnership"]
    book = k.rulebook_of(rules)
    ev = k.Evaluator(book, 0, bids=[3, 3, 3, 3], nils=[0] * 4, scores=[0, 0], bags=[0, 0])
    made = ev([3, 3, 4, 3])   # side 0 takes 7 of its 6, side 1 takes 6 of 6
    set_ = ev([2, 4, 3, 4])   # side 0 takes 5 of 6: set
    assert made > set_
    # 61 points, less the bag's share of the 100-point penalty for 10 bags, against 60
    assert made == pytest.approx(61 - 10 - 60)
    near = k.Evaluator(book, 0, bids=[3, 3, 3, 3], nils=[0] * 4, scores=[450, 470], bags=[0, 0])
    # both sides pass 500 when both make their bids; setting side 1 wins the game instead
    # of losing it: (62 - 20 + 60) - (60 - (61 - 10)) = 93 points apart without the win
    # bonus, 493 with it
    assert near([5, 2, 3, 3]) - near([3, 3, 3, 4]) == pytest.approx(493)
    free = k.Evaluator(k.rulebook_of(make_rules("partnership", bag_limit=None)), 0,
                       bids=[3, 3, 3, 3], nils=[0] * 4, scores=[0, 0], bags=[0, 0])
    assert free([3, 3, 4, 3]) == pytest.approx(1)  # bags cost nothing: a bag is a point


@pytest.mark.parametrize("rules", VARIANTS, ids=_ids)
def test_guided_playouts_play_legal_cards_to_the_end(rules: Rules) -> None:
    """The rule-guided policy only ever picks a legal card, with nil bidders at the table
    too, and a playout ends with every trick counted."""
    book = k.rulebook_of(rules)
    n = rules.players
    rng = random.Random(f"guide-{_ids(rules)}")
    for _ in range(30):
        bids = [rng.randint(1, 4) for _ in range(n)]
        nils = [k.NIL if rules.nil and rng.random() < 0.25 else k.PLAIN for _ in range(n)]
        guide = k.Guide(book, bids, nils)
        pos = k.Position(hands=k.deal(book, rng), leader=rng.randrange(n), tricks=[0] * n,
                         bids=bids, nils=nils, players=n)
        while not pos.over:
            card = guide.choose(pos, rng.random)
            assert (1 << card) & k.legal_mask(book, pos)
            k.play(book, pos, card)
        assert sum(pos.tricks) == rules.hand_size


def _cards(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split(" "))


def _guide_card(hands: list[str], trick: list[str], leader: int, nils: list[int],
                played: str = "") -> str:
    book = k.rulebook_of(PRESETS["partnership"])
    pos = k.Position(hands=[_cards(h) for h in hands], leader=leader, tricks=[2, 2, 0, 2],
                     bids=[3, 3, 0 if nils[2] else 3, 3], nils=nils, players=4, broken=True,
                     played=_cards(played) if played else 0)
    for card in trick:
        pos.hands[pos.turn] |= 1 << parse_card(card)  # the card was in that hand
        k.play(book, pos, parse_card(card))
    guide = k.Guide(book, pos.bids, pos.nils, eps=0.0)
    return str(CARDS[guide.choose(pos, random.Random(0).random)])


def test_guide_habits() -> None:
    """The playout policy's habits: a nil bidder sheds its highest card under the winner;
    its partner covers in last seat; nobody trumps a partner's sure winner."""
    nil = [0, 0, k.NIL, 0]
    plain = [0, 0, 0, 0]
    assert _guide_card(["2C", "3C", "KH 8H 5H", "4C"], ["9H"], 1, nil) == "8H"
    assert _guide_card(["AH 3H", "4C", "2C", "5C"], ["2H", "KH", "5H"], 1, nil) == "AH"
    assert _guide_card(["AS 2D", "4C", "2C", "5C"], ["4H", "KH", "6H"], 1, plain,
                       played="AH") == "2D"


def test_guide_attack_on_a_nil() -> None:
    """``attack``: a seat on lead against an opponent's live nil leads low at it that share
    of the time, and otherwise leads for its own side (here a sure winner, as it would with
    no nil at the table); without it, or at 1, always low."""
    book = k.rulebook_of(PRESETS["partnership"])
    hands = [_cards("9C"), _cards("AH 2C"), _cards("KH 8H 5H"), _cards("3C")]

    def leads(attack: list[float] | None, seed: int) -> str:
        pos = k.Position(hands=hands, leader=1, tricks=[2, 2, 0, 2], bids=[3, 3, 0, 3],
                         nils=[0, 0, k.NIL, 0], players=4, broken=True)
        guide = k.Guide(book, pos.bids, pos.nils, eps=0.0, attack=attack)
        return str(CARDS[guide.choose(pos, random.Random(seed).random)])

    assert {leads(None, s) for s in range(20)} == {"2C"}
    assert {leads([1.0] * 4, s) for s in range(20)} == {"2C"}
    assert {leads([1.0, 0.0, 1.0, 1.0], s) for s in range(20)} == {"AH"}
    half = [leads([1.0, 0.5, 1.0, 1.0], s) for s in range(200)]
    assert set(half) == {"AH", "2C"} and 60 < half.count("2C") < 140


def test_guide_ruff_in_second_seat() -> None:
    """``ruff``: a seat in second seat, void in the suit led and wanting tricks, ruffs that
    share of the time and otherwise discards; the last seat ruffs whatever it is."""
    book = k.rulebook_of(PRESETS["partnership"])
    lead = next(iter(k.cards_of(_cards("9C"))))

    def second(ruff: float, seed: int) -> str:
        hands = [_cards("3D"), _cards("2S 5H"), _cards("KC 4D"), _cards("QC 6D")]
        pos = k.Position(hands=hands, leader=0, trick=[lead], tricks=[3, 3, 3, 2],
                         bids=[4, 4, 4, 4], nils=[0, 0, 0, 0], players=4, first=False,
                         broken=True)
        assert pos.turn == 1
        guide = k.Guide(book, pos.bids, pos.nils, eps=0.0, ruff=ruff)
        return str(CARDS[guide.choose(pos, random.Random(seed).random)])

    assert {second(1.0, s) for s in range(20)} == {"2S"}
    assert {second(0.0, s) for s in range(20)} == {"5H"}
    half = [second(0.5, s) for s in range(200)]
    assert set(half) == {"2S", "5H"} and 60 < half.count("2S") < 140

    trick = [lead, *k.cards_of(_cards("5C")), *k.cards_of(_cards("7C"))]
    hands = [_cards("3D"), _cards("4D"), _cards("6D"), _cards("2S 5H")]
    last = k.Position(hands=hands, leader=0, trick=trick, tricks=[3, 3, 3, 3],
                      bids=[4, 4, 4, 4], nils=[0, 0, 0, 0], players=4, first=False,
                      broken=True)
    guide = k.Guide(book, last.bids, last.nils, eps=0.0, ruff=0.0)
    assert {str(CARDS[guide.choose(last.copy(), random.Random(s).random)])
            for s in range(20)} == {"2S"}


def test_guide_second_seat_plays_to_win_a_share_of_the_time() -> None:
    """``second``: a seat in second seat wanting tricks, with a card that wins the trick and
    one that does not, plays to win that share of the time (its lowest sure winner, else its
    lowest winner) and otherwise plays low; below 0 it keeps the old habit, taking a sure
    winner and otherwise playing low."""
    book = k.rulebook_of(PRESETS["partnership"])
    lead = next(iter(k.cards_of(_cards("9C"))))

    def second(hand: str, share: float, seed: int) -> str:
        hands = [_cards("3D"), _cards(hand), _cards("KC 4D"), _cards("QC 6D")]
        pos = k.Position(hands=hands, leader=0, trick=[lead], tricks=[3, 3, 3, 2],
                         bids=[4, 4, 4, 4], nils=[0, 0, 0, 0], players=4, first=False,
                         broken=True)
        guide = k.Guide(book, pos.bids, pos.nils, eps=0.0, second=share)
        return str(CARDS[guide.choose(pos, random.Random(seed).random)])

    # the ace is sure (nothing live beats it); the ten may be beaten by the king or queen
    assert {second("AC 2C", -1.0, s) for s in range(20)} == {"AC"}
    assert {second("TC 2C", -1.0, s) for s in range(20)} == {"2C"}
    assert {second("AC TC 2C", 1.0, s) for s in range(20)} == {"AC"}
    assert {second("TC JC 2C", 1.0, s) for s in range(20)} == {"TC"}
    assert {second("AC 2C", 0.0, s) for s in range(20)} == {"2C"}
    half = [second("TC 2C", 0.5, s) for s in range(200)]
    assert set(half) == {"TC", "2C"} and 60 < half.count("TC") < 140


def test_guide_trump_leads() -> None:
    """``trump``: a seat on lead wanting tricks, holding spades and other suits, leads a
    spade that share of the time (its boss spade, else its lowest); at 0 it leads as before,
    here its boss of hearts."""
    book = k.rulebook_of(PRESETS["partnership"])

    def leads(hand: str, trump: float, seed: int) -> str:
        hands = [_cards(hand), _cards("KH 7S 2D"), _cards("QH 8S 3D"), _cards("JH 9S 4D")]
        pos = k.Position(hands=hands, leader=0, tricks=[2, 2, 3, 3], bids=[4, 4, 4, 4],
                         nils=[0, 0, 0, 0], players=4, first=False, broken=True)
        guide = k.Guide(book, pos.bids, pos.nils, eps=0.0, trump=trump)
        return str(CARDS[guide.choose(pos, random.Random(seed).random)])

    assert {leads("AH 5S 3S", 0.0, s) for s in range(20)} == {"AH"}
    assert {leads("AH 5S 3S", 1.0, s) for s in range(20)} == {"3S"}
    assert {leads("AH AS 3S", 1.0, s) for s in range(20)} == {"AS"}
    half = [leads("AH 5S 3S", 0.5, s) for s in range(200)]
    assert set(half) == {"AH", "3S"} and 60 < half.count("3S") < 140
    # only spades, or only other suits: nothing to choose between
    assert {leads("5S 3S 2S", 1.0, s) for s in range(20)} == {"2S"}
