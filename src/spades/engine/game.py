"""The game as a state machine: ``new_game``, ``legal_actions``, ``apply``.

Dealing, the draw's face-up discards, collecting a trick, scoring, the next deal and the
end of the game all happen inside ``apply``. An illegal action raises
``IllegalActionError`` with a reason a player understands and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .actions import (
    BLIND_NIL,
    DISCARD,
    KEEP,
    KEEP_TWO,
    LOOKS,
    PLAYS,
    TAKE_KITTY,
    Action,
    Bid,
    Draw,
    Exchange,
    IllegalActionError,
    Look,
    PassCards,
    Play,
)
from .cards import (
    CARDS,
    NAME_OF,
    SUIT_MASK_OF,
    SUIT_OF,
    Card,
    CardError,
    cards_in,
    parse_card,
)
from .laws import breaks_spades, first_lead, first_leader, legal_bids, legal_plays, trick_winner
from .presets import find_preset
from .rules import Rules, RulesError
from .scoring import game_end, score_hand
from .shuffle import Shuffle, deck_of_hand
from .state import GameState, HandResult, HandState, Phase, Start, Trick

_TWO_OF_CLUBS = CARDS[0]
_PLAY = Phase.PLAY
_new = tuple.__new__


class DeckError(ValueError):
    """A deck that is not exactly the cards of the variant."""


def new_game(rules: Rules | str, seed: int | str = 0, *,
             decks: Sequence[Sequence[Card | str]] = (),
             first_dealer: int | None = None, shuffle: Shuffle | None = None,
             start: Start | None = None) -> GameState:
    """A new game, its first hand dealt.

    ``rules`` is a ``Rules`` value or a preset name (``"partnership"``). Each hand's deck is
    ``decks[i]`` when given (top card first; ``Card`` values or card text such as ``"AS"``),
    else shuffled from the hand's own seed, derived from ``seed`` and the hand number
    (``spades-shuffle/1``, see docs/shuffle.md; ``shuffle`` may ask for the shuffle of older
    games): the same seed, the same game. ``start`` begins the game from a chosen deal
    (``decks[0]``, play a deal again) and the scores and bags it holds.
    """
    if isinstance(rules, str):
        rules = find_preset(rules)
    elif not isinstance(rules, Rules):
        raise RulesError("rules must be a Rules value or a preset name such as "
                         f"'partnership', not {rules!r}")
    shuffle = Shuffle() if shuffle is None else shuffle
    n = rules.players
    dealer = n - 1 if first_dealer is None else first_dealer
    if not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ValueError(f"first_dealer must be a seat from 0 to {n - 1}, not {first_dealer!r}")
    fixed = tuple(_deck_of(deck, index) for index, deck in enumerate(decks))
    for index, deck in enumerate(fixed):
        check_deck(rules, deck, index)
    zeros = (0,) * len(rules.sides)
    if start is not None:
        _check_start(rules, start, fixed)
    hand = _deal(rules, seed, fixed, 0, dealer, shuffle)
    return GameState(rules=rules, seed=seed, decks=fixed, first_dealer=dealer,
                     scores=zeros if start is None else start.scores,
                     bags=zeros if start is None else start.bags, results=(), hand=hand,
                     over=False, winner=None, shuffle=shuffle, start=start)


def _check_start(rules: Rules, start: Start, decks: tuple[tuple[Card, ...], ...]) -> None:
    """A chosen deal's start: the deal given, a whole number per side."""
    if not decks:
        raise ValueError("a game from a chosen deal needs that deal's deck")
    for name, values in (("scores", start.scores), ("bags", start.bags)):
        if (len(values) != len(rules.sides)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
            raise ValueError(f"the starting {name} are a whole number for each of the "
                             f"{len(rules.sides)} sides")
    if any(b < 0 for b in start.bags):
        raise ValueError("the starting bags are not negative")


def add_entropy(state: GameState, number: int, contributions: Sequence[str]) -> GameState:
    """Mix the players' ``contributions`` into the shuffle of hand ``number`` (from 0), a
    hand not dealt yet and not fixed by the game's decks. Give them only after the hand
    seed's commitment was shown (``shuffle.hand_commitment(seed, number)``)."""
    if number <= state.hand.number or number < len(state.decks) or state.over:
        raise ValueError(f"hand {number + 1} is already dealt or its deck is fixed")
    if not all(isinstance(c, str) for c in contributions):
        raise ValueError("contributions are strings")
    entropy = tuple(e for e in state.shuffle.entropy if e[0] != number)
    entropy += ((number, tuple(contributions)),)
    shuffle = Shuffle(state.shuffle.version, tuple(sorted(entropy)))
    return state._replace(shuffle=shuffle)


def _deck_of(deck: Sequence[Card | str], index: int) -> tuple[Card, ...]:
    """A given deck as cards: ``Card`` values (or card indexes) and card text are taken."""
    if isinstance(deck, str):
        deck = deck.split()
    out = []
    for card in deck:
        if isinstance(card, str):
            try:
                out.append(parse_card(card))
            except CardError as error:
                raise DeckError(f"the deck of hand {index + 1}: {error}") from None
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(CARDS):
            out.append(CARDS[card])
        else:
            raise DeckError(f"the deck of hand {index + 1}: {card!r} is not a card: pass Card "
                            "values or card text such as 'AS'")
    return tuple(out)


def check_deck(rules: Rules, deck: Sequence[int], index: int = 0) -> None:
    if sorted(deck) != list(rules.deck):
        want = set(rules.deck)
        got = list(deck)
        extra = sorted({c for c in got if c not in want})
        dupes = sorted({c for c in got if got.count(c) > 1})
        missing = sorted(want - set(got))
        parts = []
        if extra:
            parts.append("not in this variant's deck: " + " ".join(str(CARDS[c]) for c in extra))
        if dupes:
            parts.append("twice: " + " ".join(str(CARDS[c]) for c in dupes))
        if missing:
            parts.append("missing: " + " ".join(str(CARDS[c]) for c in missing))
        raise DeckError(f"the deck of hand {index + 1} must hold the variant's "
                        f"{len(rules.deck)} cards once each ({'; '.join(parts)})")


def _deal(rules: Rules, seed: int | str, decks: tuple[tuple[Card, ...], ...], number: int,
          dealer: int, shuffle: Shuffle) -> HandState:
    if number < len(decks):
        deck = decks[number]
    else:
        deck = deck_of_hand(rules.deck, seed, number, shuffle)
    return deal_deck(rules, deck, number, dealer)


def deal_deck(rules: Rules, deck: tuple[Card, ...], number: int, dealer: int) -> HandState:
    """Hand ``number`` dealt by ``dealer`` from ``deck`` (top card first), no action yet."""
    n = rules.players
    first = (dealer + 1) % n
    kitty: Card | None = None
    if rules.draw:
        hands = (0,) * n
        phase = Phase.DRAW
        turn = first
    else:
        dealt = rules.hand_size * n
        masks = [0] * n
        for offset in range(n):
            mask = 0
            for card in deck[offset:dealt:n]:
                mask |= 1 << card
            masks[(first + offset) % n] = mask
        hands = tuple(masks)
        phase = Phase.BID
        turn = first
        if rules.kitty:
            kitty = deck[dealt]
            if kitty != _TWO_OF_CLUBS:
                phase = Phase.KITTY
                turn = next(s for s in range(n) if hands[s] & 1)
    return HandState(number=number, dealer=dealer, deck=deck, phase=phase, turn=turn,
                     hands=hands, stock=0, discards=(), kitty=kitty, bids=(None,) * n,
                     passes=(), pending=(), leader=first, trick=(), tricks=(0,) * n,
                     broken=False, played=0, history=(), setup=())


# ---------------------------------------------------------------------------- queries

def legal_actions(state: GameState) -> list[Action]:
    """Every action the seat to act may take now (empty when the game is over)."""
    hand = state.hand
    phase = hand.phase
    if phase is _PLAY:  # the hot path: a card to play
        trick = hand.trick
        if trick:
            led = trick[0]
            legal = legal_plays(hand.hands[hand.turn], led, hand.broken)
            if not legal & ~SUIT_MASK_OF[led]:  # following suit: that suit's memoised piece
                suit = SUIT_OF[led]
                return list(_piece(suit, legal >> _SUIT_SHIFTS[suit]))
            return list(_plays(legal))
        return list(_plays(legal_play_mask(state.rules, hand)))
    if state.over:
        return []
    if phase is Phase.BID:
        if can_bid_blind_nil(state, hand.turn):
            return [LOOKS[hand.turn], *_legal_bids(state)]
        return list(_legal_bids(state))
    if phase is Phase.DRAW:
        if can_bid_blind_nil(state, hand.turn):
            return [LOOKS[hand.turn], KEEP, DISCARD, BLIND_NIL]
        return [KEEP, DISCARD]
    if phase is Phase.KITTY:
        if can_bid_blind_nil(state, hand.turn):
            return [LOOKS[hand.turn], TAKE_KITTY, KEEP_TWO]
        return [TAKE_KITTY, KEEP_TWO]
    if phase is Phase.PASS:
        size = state.rules.blind_nil_pass
        cards = cards_in(hand.hands[hand.turn])
        return [PassCards(combo) for combo in combinations(cards, size)]
    return []


#: The plays of each set of one suit's cards, keyed by the suit's bits (0 = none).
_SUIT_PLAYS: tuple[dict[int, tuple[Play, ...]], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})
_SUIT_SHIFTS = (0, 13, 26, 39)


def _piece(suit: int, bits: int) -> tuple[Play, ...]:
    piece = _SUIT_PLAYS[suit].get(bits)
    if piece is None:
        piece = _SUIT_PLAYS[suit][bits] = tuple(
            PLAYS[c] for c in cards_in(bits << _SUIT_SHIFTS[suit]))
    return piece


def _plays(mask: int) -> tuple[Play, ...]:
    """The shared ``Play`` actions of a mask, lowest card first, built from memoised
    per-suit pieces (there are at most 2^13 of each plain suit and 2^15 of spades)."""
    out: tuple[Play, ...] = ()
    for suit, bits in enumerate(((mask & 0x1FFF), (mask >> 13) & 0x1FFF,
                                 (mask >> 26) & 0x1FFF, mask >> 39)):
        if bits:
            piece = _SUIT_PLAYS[suit].get(bits)
            out += piece if piece is not None else _piece(suit, bits)
    return out


def legal_play_mask(rules: Rules, hand: HandState) -> int:
    """The cards the seat to act may play, as a mask."""
    trick = hand.trick
    opening = 0 if hand.history or trick else first_lead(rules, hand.hands)
    return legal_plays(hand.hands[hand.turn], trick[0] if trick else None, hand.broken,
                       opening)


def _legal_bids(state: GameState) -> tuple[Bid, ...]:
    rules = state.rules
    hand = state.hand
    seat = hand.turn
    partner = rules.partner_of[seat]
    return legal_bids(rules, hand.bids[partner] if partner is not None else None,
                      blind_nil=can_bid_blind_nil(state, seat))


def can_bid_blind_nil(state: GameState, seat: int) -> bool:
    """Blind nil is still open to ``seat`` this hand, whether or not it is its turn: blind
    nil is on, the seat has not looked at its cards, bid (or, two-player, drawn) yet, its
    partner's bid leaves it blind nil (not in suicide after a partner's nil), and its side
    is far enough behind. While this holds the seat's cards are face down: its view holds
    none (``PlayerView.face_down``) and it may ``Look``."""
    if not _face_down_before_partner(state, seat):
        return False
    partner = state.rules.partner_of[seat]
    partner_bid = state.hand.bids[partner] if partner is not None else None
    return BLIND_NIL in legal_bids(state.rules, partner_bid, blind_nil=True)


def _face_down_before_partner(state: GameState, seat: int) -> bool:
    """``can_bid_blind_nil`` without the partner's bid: how games were played until a seat
    whose partner's bid left it no blind nil stopped being dealt face down. A saved game's
    look of such a seat changes nothing and is passed over on replay (``is_idle_look``)."""
    rules = state.rules
    hand = state.hand
    if not rules.blind_nil or state.over or hand.bids[seat] is not None:
        return False
    if has_looked(hand, seat):
        return False
    if rules.draw:
        if hand.phase is not Phase.DRAW or hand.hands[seat]:
            return False
    elif hand.phase is not Phase.BID and hand.phase is not Phase.KITTY:
        return False
    if rules.blind_nil_deficit is None:
        return True
    side = rules.side_of[seat]
    best_other = max(s for i, s in enumerate(state.scores) if i != side)
    return best_other - state.scores[side] >= rules.blind_nil_deficit


def is_idle_look(state: GameState, action: Action) -> bool:
    """A ``Look`` by a seat whose cards are face up only because its partner's bid left it
    no blind nil (suicide): older saves hold such looks; replaying one changes nothing."""
    return (isinstance(action, Look) and isinstance(action.seat, int)
            and 0 <= action.seat < state.rules.players
            and not can_bid_blind_nil(state, action.seat)
            and _face_down_before_partner(state, action.seat))


def has_looked(hand: HandState, seat: int) -> bool:
    """``seat`` turned up its cards this hand with a ``Look``."""
    look = LOOKS[seat]
    return any(action is look or action == look for _, action in hand.setup)


# ---------------------------------------------------------------------------- apply

def apply(state: GameState, action: Action) -> GameState:
    """The state after the seat to act takes ``action``; the given state is unchanged."""
    phase = state.hand.phase
    kind = type(action)
    if kind is Play and phase is _PLAY:  # the hot path
        return _play(state, action.card)  # type: ignore[union-attr]
    if state.over:
        raise IllegalActionError("the game is over")
    if kind is Play:
        if phase is not Phase.PLAY:
            raise IllegalActionError(_not_now(phase, "play a card"))
        return _play(state, action.card)  # type: ignore[union-attr]
    if kind is Bid:
        return _bid(state, action)  # type: ignore[arg-type]
    if kind is Draw:
        if phase is not Phase.DRAW:
            raise IllegalActionError(_not_now(phase, "draw"))
        return _draw(state, action.keep)  # type: ignore[union-attr]
    if kind is PassCards:
        if phase is not Phase.PASS:
            raise IllegalActionError(_not_now(phase, "pass cards"))
        return _pass(state, action.cards)  # type: ignore[union-attr]
    if kind is Exchange:
        if phase is not Phase.KITTY:
            raise IllegalActionError(_not_now(phase, "exchange with the kitty"))
        return _exchange(state, action.take)  # type: ignore[union-attr]
    if kind is Look:
        return _look(state, action.seat)  # type: ignore[union-attr]
    raise IllegalActionError(f"{action!r} is not an action")


_PHASE_WORDS = {
    Phase.DRAW: "it is time to draw",
    Phase.KITTY: "it is time for the kitty exchange",
    Phase.BID: "it is time to bid",
    Phase.PASS: "it is time to pass cards",
    Phase.PLAY: "it is time to play a card",
    Phase.OVER: "the game is over",
}


def _not_now(phase: Phase, what: str) -> str:
    return f"you cannot {what} now: {_PHASE_WORDS[phase]}"


def _with_hand(state: GameState, hand: HandState) -> GameState:
    return GameState(state.rules, state.seed, state.decks, state.first_dealer, state.scores,
                     state.bags, state.results, hand, False, None, state.shuffle,
                     state.undos, state.start, state.marks)


def _why_not_play(rules: Rules, hand: HandState, card: Card) -> str:
    held = hand.hands[hand.turn]
    if not (1 << card) & held:
        return f"you do not hold the {NAME_OF[card]}"  # Play() admits only real cards
    if hand.trick:
        return f"you must follow {SUIT_OF[hand.trick[0]].noun}"
    club = 0 if hand.history else first_lead(rules, hand.hands)
    if club & held:
        return f"the first lead must be the {NAME_OF[club.bit_length() - 1]}"
    return "spades are not broken yet: lead another suit"


def _play(state: GameState, card: Card) -> GameState:
    rules = state.rules
    hand = state.hand
    seat = hand.turn
    bit = 1 << card
    held = hand.hands[seat]
    led = hand.trick[0] if hand.trick else None
    opening = 0 if led is not None or hand.history else first_lead(rules, hand.hands)
    if not bit & legal_plays(held, led, hand.broken, opening):
        raise IllegalActionError(_why_not_play(rules, hand, card))
    n = rules.players
    hands = list(hand.hands)
    hands[seat] = held ^ bit
    broken = hand.broken or breaks_spades(rules.spades_break, led, card)
    trick = hand.trick + (card,)  # noqa: RUF005 (faster than unpacking on the hot path)
    if len(trick) < n:
        # tuple.__new__ builds the NamedTuples without their Python-level __new__: this is
        # the engine's hottest line, run for every card that does not end a trick
        return _new(GameState, (
            state.rules, state.seed, state.decks, state.first_dealer, state.scores, state.bags,
            state.results, _new(HandState, (
                hand.number, hand.dealer, hand.deck, _PLAY, (seat + 1) % n, tuple(hands),
                hand.stock, hand.discards, hand.kitty, hand.bids, hand.passes, hand.pending,
                hand.leader, trick, hand.tricks, broken, hand.played | bit, hand.history,
                hand.setup)), False, None, state.shuffle, state.undos, state.start,
            state.marks))
    winner = trick_winner(trick, hand.leader, n)
    tricks = list(hand.tricks)
    tricks[winner] += 1
    history = (*hand.history, Trick(hand.leader, trick, winner))
    done = not any(hands)
    after = _new(HandState, (
        hand.number, hand.dealer, hand.deck, Phase.OVER if done else _PLAY, winner,
        tuple(hands), hand.stock, hand.discards, hand.kitty, hand.bids, hand.passes,
        hand.pending, winner, (), tuple(tricks), broken, hand.played | bit, history,
        hand.setup))
    if done:
        return _finish_hand(state, after)
    return _with_hand(state, after)


def _finish_hand(state: GameState, hand: HandState) -> GameState:
    rules = state.rules
    bids = tuple(b for b in hand.bids if b is not None)
    score = score_hand(rules, bids, hand.tricks, state.scores, state.bags)
    result = HandResult(number=hand.number, dealer=hand.dealer, deck=hand.deck,
                        actions=hand.actions, bids=bids, tricks=hand.tricks,
                        history=hand.history, score=score)
    over, winner = game_end(rules, score)
    if over:
        final = HandState(
            number=hand.number, dealer=hand.dealer, deck=hand.deck, phase=Phase.OVER,
            turn=-1, hands=hand.hands, stock=hand.stock, discards=hand.discards,
            kitty=hand.kitty, bids=hand.bids, passes=hand.passes, pending=(),
            leader=hand.leader, trick=(), tricks=hand.tricks, broken=hand.broken,
            played=hand.played, history=hand.history, setup=hand.setup)
    else:
        final = _deal(rules, state.seed, state.decks, hand.number + 1,
                      (hand.dealer + 1) % rules.players, state.shuffle)
    return GameState(rules=rules, seed=state.seed, decks=state.decks,
                     first_dealer=state.first_dealer, scores=score.scores, bags=score.bags,
                     results=(*state.results, result), hand=final, over=over, winner=winner,
                     shuffle=state.shuffle, undos=state.undos, start=state.start,
                     marks=state.marks)


def _replace_hand(hand: HandState, **changes: object) -> HandState:
    return hand._replace(**changes)  # type: ignore[arg-type]


def _next_bidder(rules: Rules, bids: Sequence[Bid | None], after: int) -> int | None:
    n = rules.players
    for step in range(1, n + 1):
        seat = (after + step) % n
        if bids[seat] is None:
            return seat
    return None


def _bid(state: GameState, bid: Bid) -> GameState:
    rules = state.rules
    hand = state.hand
    seat = hand.turn
    if bid.blind:
        if hand.phase is Phase.KITTY or not can_bid_blind_nil(state, seat):
            raise IllegalActionError(_why_no_blind(state, seat))
    elif hand.phase is not Phase.BID:
        raise IllegalActionError(_not_now(hand.phase, "bid"))
    elif bid not in _legal_bids(state):
        raise IllegalActionError(_why_not_bid(state, bid))
    bids = list(hand.bids)
    bids[seat] = bid
    setup = (*hand.setup, (seat, bid))
    if not bid.blind and can_bid_blind_nil(state, seat):  # bidding on one's cards looks
        setup = (*hand.setup, (seat, LOOKS[seat]), (seat, bid))
    if hand.phase is Phase.DRAW:  # two-player blind nil, declared before the first draw
        return _with_hand(state, _replace_hand(hand, bids=tuple(bids), setup=setup))
    nxt = _next_bidder(rules, bids, seat)
    if nxt is not None:
        return _with_hand(state, _replace_hand(hand, bids=tuple(bids), turn=nxt, setup=setup))
    return _with_hand(state, _after_bids(rules, hand, tuple(bids), setup))


def _why_no_blind(state: GameState, seat: int) -> str:
    rules = state.rules
    hand = state.hand
    if not rules.blind_nil:
        return "blind nil is not played at this table"
    if hand.bids[seat] is not None:
        return "you have already bid"
    if rules.draw and (hand.phase is not Phase.DRAW or hand.hands[seat]):
        return "blind nil must be declared before your first draw"
    if not rules.draw and hand.phase is not Phase.BID:
        return _not_now(hand.phase, "bid")
    if has_looked(hand, seat):
        return "you have looked at your cards: blind nil is bid before looking"
    partner = rules.partner_of[seat]
    partner_bid = hand.bids[partner] if partner is not None else None
    if rules.suicide and partner_bid is not None and partner_bid.nil:
        return f"suicide: your partner bid nil, so you must bid {rules.suicide_min} or more"
    return (f"blind nil is allowed only when your side is behind by "
            f"{rules.blind_nil_deficit} points or more")


def _why_not_bid(state: GameState, bid: Bid) -> str:
    rules = state.rules
    hand = state.hand
    if bid.nil and not rules.nil:
        return f"nil is not played at this table: bid {rules.min_bid} to {rules.max_bid}"
    if rules.suicide:
        partner = rules.partner_of[hand.turn]
        other = hand.bids[partner] if partner is not None else None
        if other is not None and other.nil:
            return (f"suicide: your partner bid nil, so you must bid "
                    f"{rules.suicide_min} or more")
        if other is not None:
            return "suicide: your partner did not bid nil, so you must bid nil"
        return f"suicide: bid nil or {rules.suicide_min} or more"
    plain = f"{rules.min_bid} to {rules.max_bid}"
    if rules.nil:
        return f"bid nil or {plain}, not {bid.label}"
    if bid.tricks == 0:
        return f"bid {plain}, not 0: nil is not played at this table"
    return f"bid {plain}, not {bid.label}"


def _after_bids(rules: Rules, hand: HandState, bids: tuple[Bid | None, ...],
                setup: tuple[tuple[int, Action], ...]) -> HandState:
    pending: list[tuple[int, int]] = []
    if rules.blind_nil_pass:
        n = rules.players
        busy: set[int] = set()
        for step in range(1, n + 1):
            seat = (hand.dealer + step) % n
            bid = bids[seat]
            partner = rules.partner_of[seat]
            if bid is not None and bid.blind and partner is not None and seat not in busy:
                pending += [(seat, partner), (partner, seat)]
                busy |= {seat, partner}
    if pending:
        return _replace_hand(hand, bids=bids, setup=setup, phase=Phase.PASS,
                             turn=pending[0][0], pending=tuple(pending))
    return _start_play(rules, _replace_hand(hand, bids=bids, setup=setup))


def _start_play(rules: Rules, hand: HandState) -> HandState:
    leader = first_leader(rules, hand.dealer, hand.hands)
    return _replace_hand(hand, phase=Phase.PLAY, turn=leader, leader=leader, pending=())


def _draw(state: GameState, keep: bool) -> GameState:
    rules = state.rules
    hand = state.hand
    seat = hand.turn
    drawn = hand.deck[hand.stock]
    following = hand.deck[hand.stock + 1]
    kept, shown = (drawn, following) if keep else (following, drawn)
    hands = list(hand.hands)
    hands[seat] |= 1 << kept
    setup = (*hand.setup, (seat, KEEP if keep else DISCARD))
    if can_bid_blind_nil(state, seat):  # drawing looks at the card
        setup = (*hand.setup, (seat, LOOKS[seat]), (seat, KEEP if keep else DISCARD))
    other = (seat + 1) % rules.players
    changes: dict[str, object] = dict(
        hands=tuple(hands), stock=hand.stock + 2, discards=(*hand.discards, shown),
        setup=setup, turn=other)
    if hand.stock + 2 < len(hand.deck):
        return _with_hand(state, _replace_hand(hand, **changes))
    # every card is drawn: bid, skipping a player who went blind nil
    drawn_hand = _replace_hand(hand, **changes)
    first = (hand.dealer + 1) % rules.players
    nxt = first if hand.bids[first] is None else _next_bidder(rules, hand.bids, first)
    if nxt is None:
        return _with_hand(state, _after_bids(rules, drawn_hand, hand.bids, setup))
    return _with_hand(state, _replace_hand(drawn_hand, phase=Phase.BID, turn=nxt))


def _pass(state: GameState, cards: tuple[Card, ...]) -> GameState:
    rules = state.rules
    hand = state.hand
    giver, receiver = hand.pending[0]
    size = rules.blind_nil_pass
    mask = 0
    for card in cards:
        mask |= 1 << card
    if len(cards) != size or mask.bit_count() != size:
        raise IllegalActionError(f"pass exactly {size} different cards")
    if mask & ~hand.hands[giver]:
        missing = next(c for c in cards if not (1 << c) & hand.hands[giver])
        raise IllegalActionError(f"you do not hold the {NAME_OF[missing]}")
    hands = list(hand.hands)
    hands[giver] ^= mask
    hands[receiver] |= mask
    ordered = tuple(sorted(CARDS[c] for c in cards))
    pending = hand.pending[1:]
    after = _replace_hand(hand, hands=tuple(hands),
                          passes=(*hand.passes, (giver, receiver, ordered)),
                          setup=(*hand.setup, (giver, PassCards(ordered))),
                          pending=pending, turn=pending[0][0] if pending else giver)
    if pending:
        return _with_hand(state, after)
    return _with_hand(state, _start_play(rules, after))


def _look(state: GameState, seat: int) -> GameState:
    rules = state.rules
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise IllegalActionError(f"seat must be 0 to {rules.players - 1}, not {seat!r}")
    if not can_bid_blind_nil(state, seat):
        if not rules.blind_nil:
            raise IllegalActionError("blind nil is not played at this table: your cards "
                                     "are face up")
        raise IllegalActionError("your cards are already face up")
    hand = state.hand
    return _with_hand(state, _replace_hand(hand, setup=(*hand.setup, (seat, LOOKS[seat]))))


def _exchange(state: GameState, take: bool) -> GameState:
    hand = state.hand
    seat = hand.turn
    hands = list(hand.hands)
    kitty = hand.kitty
    if take and kitty is not None:
        hands[seat] = (hands[seat] ^ 1) | (1 << kitty)
        kitty = _TWO_OF_CLUBS
    first = (hand.dealer + 1) % state.rules.players
    return _with_hand(state, _replace_hand(
        hand, hands=tuple(hands), kitty=kitty, phase=Phase.BID, turn=first,
        setup=(*hand.setup, (seat, TAKE_KITTY if take else KEEP_TWO))))
