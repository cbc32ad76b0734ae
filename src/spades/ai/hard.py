"""Hard: determinized search over deals the seat could be facing.

Play is Perfect-Information Monte Carlo (PIMC) with rule-guided playouts, the method of GIB in
bridge and of the strong Skat programs: draw a deal consistent with the ``PlayerView``
(``sampler.DealSampler``: voids shown, passed cards, bids and plays as evidence, ``reading``
and ``clues``), try every distinct card on that same deal with the same playout seed
(common random numbers, so the comparison between cards is paired and low in noise), score
each finished hand with the rules and the game score (``kernel.Evaluator``; with the option
``standing``, where each plays for themselves, the margin to each opponent weighed by its
chance of winning the game), and repeat; cards that trail the leader by a clear margin stop
being sampled (successive rejection). In the last tricks (with ``nil_solve_tricks``, more of
them while an opponent's nil is alive) an exact search (``solver.solve``) replaces the
playouts on each deal; while a nil is alive the search may take more playouts
(``nil_search``). Of cards worth the same it plays the one players' habits choose (the lowest
of the suit; a live nil bidder's highest), which is what it reads in other seats' plays.

Why PIMC and not SO-ISMCTS: in pure Python a decision affords about a thousand playouts;
ISMCTS spends most of those on a shallow tree and the AIIDE 2013 Spades study saw little
gain from more iterations, while PIMC's paired comparisons at the root use every playout to
rank the moves we actually choose among, and plug straight into an exact endgame solver.
Its known flaw, strategy fusion, is smallest in Spades, where all plays are public.

Bids are chosen the same way: each candidate bid (nil included) is played out on the same
sampled deals, with the bids of seats yet to speak read from their sampled hands as players
bid them (``reading``: a line fitted on a mix of styles, the one the sampler reads the bids
made with, and nil by the chance fitted on the same mix; opponents dealt a little stronger
than they bid, and on lead against our nil
leading low at it only part of the time, as the table does), and the bid with the best
expected score wins; a nil lost in a playout is partly credited, as the table saves many that
rule-played playouts lose (not a nil with four spades, which no discard saves), and a seat
covering its partner's nil bids under its playouts' choice, as covering costs tricks. The score
of the game is in the evaluation (a bonus for ending the game as winner), so bids and play
change near the target.

The player sees only its ``PlayerView``. With ``time_limit=None`` a decision depends only on
the view, the rng and ``iterations``: the same seed gives the same choice.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from spades.engine import (
    ABOVE,
    BLIND_NIL,
    FIRST_SPADE,
    NIL,
    SUIT_OF,
    Action,
    Bid,
    Draw,
    Exchange,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    first_leader,
    legal_bids,
)

from . import kernel as k
from .bidding import nil_breaks_bag_limit
from .knowledge import live_nil
from .reading import BidReading, NilReading, nil_reading_of, reading_of
from .sampler import DealSampler, ImpossibleDeal, estimate_tricks, nil_likelihood
from .solver import solve
from .standing import threat_weights

#: Playouts per decision by default; with a nil alive ``NIL_SEARCH`` times as many
#: (decision times: docs/ai-tuning.md#hard-iterations).
DEFAULT_ITERATIONS = 1200
#: With this many tricks left (the one on the table included) the endgame is solved exactly.
#: Evidence: docs/ai-tuning.md#hard-solve-tricks
SOLVE_TRICKS = 4
#: With this many tricks left the endgame is solved exactly while an opponent's nil is alive
#: (``nil_solve_tricks``): there one card sets the nil or lets it through. Deeper is an
#: option, not the default (docs/ai-tuning.md#hard-nil-solve-tricks).
NIL_SOLVE_TRICKS = SOLVE_TRICKS
#: A card decision while a nil at the table is alive gets this many times the budget: one
#: card may make or break the nil, 200 points apart, and the card values are the noisiest of
#: the hand. Evidence: docs/ai-tuning.md#hard-nil-search
NIL_SEARCH = 4.0
#: An exact solve of one deal counts as this many playouts of the budget.
_SOLVE_COST = 5
#: How many tricks stronger than their bids read (``reading``) the sampler deals the
#: opponents' hands: players at the table take more tricks than the rule-played playouts'
#: hands of their count. Evidence: docs/ai-tuning.md#hard-opponent-edge
OPPONENT_EDGE = 0.6
#: The share of the nils lost in bid playouts that the table would make, credited to the nil
#: candidate: the table guards a nil by search, far better than the playouts' rules.
#: Evidence: docs/ai-tuning.md#hard-nil-saved
NIL_SAVED = 0.1
#: How often the opponents, on lead against our side's live nil, lead low at it in the bid
#: playouts (``kernel.Guide``'s ``attack``); the rest of the time they lead for their own
#: side. Evidence: docs/ai-tuning.md#hard-nil-attack
NIL_ATTACK = 0.3
#: A hand with this many spades or more gets no share of its lost nil playouts (``NIL_SAVED``;
#: None: every nil hand gets it): late forced spades break it, which no discard saves.
#: Evidence: docs/ai-tuning.md#hard-credit-spades
CREDIT_SPADES: int | None = 4
#: A seat whose partner has already bid nil bids this many tricks under the bid its playouts
#: choose: covering costs tricks that the rule-played playouts do not charge.
#: Evidence: docs/ai-tuning.md#hard-cover-shade
COVER_SHADE = 1
#: How much a play that breaks a habit (``clues``) counts against a deal: a sampled deal at
#: odds with a clue keeps this much less of its weight. Evidence: docs/ai-tuning.md#hard-play-trust
PLAY_TRUST = 0.9
#: Whether, where each plays for themselves, the margin to each opponent is weighed by its
#: chance of winning the game (``standing``) rather than the opponents' average. Off until a
#: screen over whole games shows it better. Evidence: docs/ai-tuning.md#hard-standing
STANDING = False
#: Points within which a card of the suit the habits prefer (the lowest; a live nil bidder's
#: highest) is played instead of the best, so a partner can read the hand (``clues``).
#: Evidence: docs/ai-tuning.md#hard-habit-tolerance
HABIT_TOLERANCE = 0.5

# Tried and not adopted: the table's habits in the playouts (docs/ai-tuning.md#hard-table-habits)
# and a nil bid read by a fit to the table's nils (docs/ai-tuning.md#hard-nil-fit). The bids
# still to come go nil by the mix's chance (docs/ai-tuning.md#hard-imagined-nils).


@dataclass(frozen=True)
class PlayWeights:
    """A card decision of Hard's and how its search valued the cards: the mean value (the
    hand's expected score for the seat's side) of each distinct card still in the search at
    the end, on the same sampled deals; empty when there was nothing to weigh (one card,
    or cards that all play alike)."""

    action: Action
    values: dict[int, float]
    #: for each distinct card the search weighed (those dropped from it too), how far the
    #: best card's value is above its own on the deals both were played on, and the
    #: standard error of that difference (how sure the search is that the best is better:
    #: Normal's look ahead weighs its own card by it)
    margins: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass
class HardPlayer:
    """Determinized search (PIMC) with rule-guided playouts and an exact endgame."""

    iterations: int = DEFAULT_ITERATIONS
    time_limit: float | None = None
    blind_nil: bool = False
    solve_tricks: int = SOLVE_TRICKS
    #: tricks left from which the endgame is solved exactly while an opponent's nil is alive
    nil_solve_tricks: int = NIL_SOLVE_TRICKS
    #: at most this many sampled deals are solved exactly in one decision (None: as many as
    #: the budget pays for, ``_SOLVE_COST`` playouts a move each); a cap on the time a deeper
    #: ``solve_tricks`` takes
    solve_deals: int | None = None
    #: the play budget's multiple while a nil at the table is alive (``iterations`` times
    #: this many playouts a card decision; 1: no longer than other decisions)
    nil_search: float = NIL_SEARCH
    win_bonus: float = 200.0
    nil_saved: float = NIL_SAVED
    #: a hand with this many spades or more gets no nil credit (None: every nil hand does)
    credit_spades: int | None = CREDIT_SPADES
    cover_shade: int = COVER_SHADE
    #: how bids follow hands, for the sampler and the bids imagined to come (None: the
    #: table's fitted ``reading.reading_of``)
    reading: BidReading | None = None
    #: opponents' hands are dealt this many tricks stronger than their bids read
    edge: float = OPPONENT_EDGE
    #: the share of a sampled deal's weight taken away by each play it is at odds with
    #: (``clues``: inference from play; 0 reads no plays)
    trust: float = PLAY_TRUST
    #: points within which the card the habits choose is preferred to the best
    tolerance: float = HABIT_TOLERANCE
    #: how often the opponents, on lead against our side's live nil, lead low at it in the
    #: bid playouts (1: always, as our side does)
    nil_attack: float = NIL_ATTACK
    #: where each plays for themselves, weigh the margin to each opponent by its chance of
    #: winning the game (``standing``); False: the opponents' average, as before issue 40
    standing: bool = STANDING
    name: str = "hard"
    #: The last bid's probe: the mean tricks the seat took in the bid playouts (for
    #: analysis, ``bench/experiments/hard_bids.py``; it plays no part in any decision).
    last_probe: float | None = field(default=None, init=False, repr=False, compare=False)
    #: The last bid's nil playouts: (made, tried), when nil was a candidate (analysis only).
    last_nil: tuple[int, int] | None = field(default=None, init=False, repr=False,
                                             compare=False)

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"time_limit must be positive or None, not {self.time_limit}")
        if not 0 <= self.nil_attack <= 1:
            raise ValueError(f"nil_attack must be from 0 to 1, not {self.nil_attack}")
        if not 0 <= self.trust < 1:
            raise ValueError(f"trust must be at least 0 and under 1, not {self.trust}")
        if self.tolerance < 0:
            raise ValueError(f"tolerance must not be negative, not {self.tolerance}")
        for name in ("solve_tricks", "nil_solve_tricks"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, not {getattr(self, name)}")
        if self.nil_search <= 0:
            raise ValueError(f"nil_search must be positive, not {self.nil_search}")
        if self.credit_spades is not None and self.credit_spades < 1:
            raise ValueError(f"credit_spades must be at least 1 or None, not {self.credit_spades}")
        if self.solve_deals is not None and self.solve_deals < 1:
            raise ValueError(f"solve_deals must be at least 1 or None, not {self.solve_deals}")

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("it is not this seat's turn")
        r = random.Random(rng.getrandbits(64))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        phase = view.phase
        if phase is Phase.PLAY:
            return self._weigh(view, r, deadline).action
        if phase is Phase.BID:
            return self._bid(view, r, deadline)
        if phase is Phase.DRAW:
            return self._draw(view)
        if phase is Phase.KITTY:
            return self._kitty(view)
        if phase is Phase.PASS:
            return self._pass(view)
        return legal[0]

    def _reading(self, view: PlayerView) -> BidReading:
        return self.reading or reading_of(view.rules)

    # ------------------------------------------------------------------------ play

    def weigh_play(self, view: PlayerView, rng: random.Random) -> PlayWeights:
        """The card ``choose`` plays in this view with this ``rng`` (drawn the same way,
        so the same card), with the values its search gave the cards (the adviser's
        reading of the decision, ``advice``). Only for a turn to play."""
        if view.phase is not Phase.PLAY or not view.legal:
            raise ValueError("it is not this seat's turn to play")
        r = random.Random(rng.getrandbits(64))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        return self._weigh(view, r, deadline)

    def _weigh(self, view: PlayerView, r: random.Random, deadline: float | None) -> PlayWeights:
        legal = view.legal
        if len(legal) == 1:
            return PlayWeights(legal[0], {})
        return self._play(view, r, deadline)

    def _play(self, view: PlayerView, r: random.Random,
              deadline: float | None) -> PlayWeights:
        book = k.rulebook_of(view.rules)
        legal: dict[int, Play] = {int(a.card): a for a in view.legal if isinstance(a, Play)}
        try:
            sampler = DealSampler(view, reading=self._reading(view), edge=self.edge,
                                  trust=self.trust)
        except ImpossibleDeal:  # a view that contradicts itself: play as the guide would
            return PlayWeights(self._guided_fallback(view, r, legal), {})
        bids, nils = _bids_of(view)
        # Bags cost from the first trick, not only once the side has made its bid
        # (docs/ai-tuning.md#hard-bags-in-play).
        evaluate = k.Evaluator(book, view.my_side, bids=bids, nils=nils, scores=view.scores,
                               bags=view.bags, win_bonus=self.win_bonus,
                               weights=self._weights(view))
        guide = k.Guide(book, bids, nils)
        moves = distinct_cards(view)
        if len(moves) == 1:
            return PlayWeights(legal[moves[0]], {})
        live = _live_nils(view)
        exact, budget = self._card_budget(view, live)
        search = _MoveSearch(moves)
        used = solved = 0
        while used < budget:
            holdings = sampler.sample(r)
            pos = _position(view, holdings, bids, nils)
            if exact:
                values = solve(book, pos, search.active, evaluate, view.my_side)
                used += _SOLVE_COST * len(search.active)
                solved += 1
                # one deal fits (its exact values are the answer), or the cap is reached
                if sampler.certain or solved == self.solve_deals:
                    used = budget
            else:
                values = _playout_values(book, pos, search.active, evaluate, guide,
                                         r.getrandbits(32))
                used += len(search.active)
            search.add(values)
            if deadline is not None and time.perf_counter() > deadline:
                break
        ducking = view.seat in live  # the seat's own nil is alive
        card = search.habitual(self.tolerance, highest=ducking)
        return PlayWeights(legal[card], {m: search.mean(m) for m in search.active},
                           search.margins())

    def _card_budget(self, view: PlayerView, live: list[int]) -> tuple[bool, int]:
        """(whether the sampled deals are solved exactly, the playouts a card decision
        may use) with the live nils ``live`` at the table."""
        left = max(view.hand_sizes)
        side_of = view.rules.side_of
        exact = left <= self.solve_tricks or (left <= self.nil_solve_tricks and any(
            side_of[seat] != side_of[view.seat] for seat in live))  # an opponent's nil
        budget = self.iterations
        if live:  # one card may make or break 200 points: search longer
            budget = max(1, round(budget * self.nil_search))
        return exact, budget

    def _guided_fallback(self, view: PlayerView, r: random.Random,
                         legal: dict[int, Play]) -> Action:
        book = k.rulebook_of(view.rules)
        bids, nils = _bids_of(view)
        holdings = [0] * view.rules.players
        holdings[view.seat] = view.hand_mask
        pos = _position(view, holdings, bids, nils)
        card = k.Guide(book, bids, nils, eps=0.0).choose(pos, r.random)
        return legal.get(card, next(iter(legal.values())))

    # ------------------------------------------------------------------------ bid

    def _bid(self, view: PlayerView, r: random.Random, deadline: float | None) -> Action:
        """Play the hand out on sampled deals once per candidate bid; the best average
        score wins. A first probe (a fifth of the budget) finds how many tricks the hand
        takes on these deals, and the candidates are the bids nearest that, and nil."""
        book = k.rulebook_of(view.rules)
        legal = [a for a in view.legal if isinstance(a, Bid)]
        if BLIND_NIL in legal and self._wants_blind_nil(view):
            return BLIND_NIL
        plain = [b for b in legal if not b.nil]
        mine = view.hand_mask
        if not plain:
            return NIL if NIL in legal else legal[0]
        try:
            sampler = DealSampler(view, reading=self._reading(view), edge=self.edge)
        except ImpossibleDeal:
            return _bid_window(plain, estimate_tricks(mine, book))[0]
        guess = estimate_tricks(mine, book)
        first = _bid_window(plain, guess)[:1]
        probe, rounds = self._probe(view, sampler, first, r, deadline)
        self.last_probe = probe
        candidates = _bid_window(plain, probe)
        nil_ok = _nil_candidate(view, legal, book)
        if nil_ok:
            candidates.append(NIL)
        if len(candidates) == 1:
            return _cover(view, plain, candidates[0], self.cover_shade)
        best = self._bid_search(view, sampler, candidates, nil_ok, rounds, r, deadline)
        return _cover(view, plain, candidates[best], self.cover_shade)

    def _probe(self, view: PlayerView, sampler: DealSampler, first: list[Bid],
               r: random.Random, deadline: float | None) -> tuple[float, int]:
        """(the mean tricks the seat takes with the bid ``first`` over a fifth of the
        budget's sampled deals, the deals played)."""
        taken = 0
        rounds = 0
        probe_end = None if deadline is None else (
            time.perf_counter() + (deadline - time.perf_counter()) / 5)
        while rounds < max(1, self.iterations // 5):
            holdings = sampler.sample(r)
            _, tricks = self._bid_playouts(view, holdings, first, r.getrandbits(32))
            taken += tricks[0]
            rounds += 1
            if probe_end is not None and time.perf_counter() > probe_end:
                break
        return taken / rounds, rounds

    def _bid_search(self, view: PlayerView, sampler: DealSampler, candidates: list[Bid],
                    nil_ok: bool, used: int, r: random.Random,
                    deadline: float | None) -> int:
        """The index of the candidate bid with the best mean value over the sampled deals
        (nil last when ``nil_ok``; ``used``: the playouts the budget has spent already)."""
        rules = view.rules
        mine = view.hand_mask
        search = _MoveSearch(list(range(len(candidates))))
        nil_index = len(candidates) - 1 if nil_ok else -1
        nil_made = nil_tried = 0
        credit = self.nil_saved * 2 * rules.nil_value
        if self.credit_spades is not None and (mine & k.SPADES).bit_count() >= self.credit_spades:
            credit = 0.0
        while used < self.iterations:
            holdings = sampler.sample(r)
            values, took = self._bid_playouts(view, holdings,
                                              [candidates[i] for i in search.active],
                                              r.getrandbits(32))
            if nil_index in search.active:
                at = search.active.index(nil_index)
                nil_tried += 1
                nil_made += took[at] == 0
                if took[at]:  # the table saves some nils the playouts lose
                    values[at] += credit
            used += len(search.active)
            search.add(values)
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_nil = (nil_made, nil_tried) if nil_ok else None
        return search.best()

    def _bid_playouts(self, view: PlayerView, holdings: list[int], bids_tried: list[Bid],
                      seed: int) -> tuple[list[float], list[int]]:
        """For each bid tried: the value of the hand played out on this deal (the same
        playout seed for each), and the tricks the seat took.

        Bags are charged their full share here too (docs/ai-tuning.md#hard-bags-in-bids)."""
        book = k.rulebook_of(view.rules)
        n = view.rules.players
        reads = _read_hands(view, holdings, book)
        reading = self._reading(view)
        nil_reading = nil_reading_of(view.rules)
        # whether a seat yet to bid bids nil on this deal: one draw a seat, the same for
        # every bid tried (from the deal's seed, apart from the playout's stream)
        pick = random.Random(seed ^ 0x5EED)
        draws = [pick.random() for _ in range(n)]
        leader = _first_leader(view, holdings)
        attack = self._attack(view)
        weights = self._weights(view)
        values: list[float] = []
        taken: list[int] = []
        for bid in bids_tried:
            bids, nils = _fill_bids(view, reads, bid, reading, nil_reading, draws)
            pos = k.Position(hands=holdings[:n], leader=leader, tricks=[0] * n, bids=bids,
                             nils=nils, players=n)
            evaluate = k.Evaluator(book, view.my_side, bids=bids, nils=nils, scores=view.scores,
                                   bags=view.bags, win_bonus=self.win_bonus, weights=weights)
            guide = k.Guide(book, bids, nils, attack=attack)
            tricks = k.guided_playout(book, pos, guide, random.Random(seed).random)
            values.append(evaluate(tricks))
            taken.append(tricks[view.seat])
        return values, taken

    def _weights(self, view: PlayerView) -> tuple[float, ...] | None:
        """How much each opponent's points count against the seat's side in a hand's value
        (``standing.threat_weights``; None: the opponents' average, as with two sides)."""
        if not self.standing:
            return None
        return threat_weights(view.rules, view.my_side, view.scores)

    def _attack(self, view: PlayerView) -> tuple[float, ...] | None:
        """The playouts' ``attack``: ``nil_attack`` for the opponents' seats, 1 for ours
        (our side attacks a nil by search, and its playouts are best read as attacking)."""
        if self.nil_attack >= 1.0:
            return None
        side_of = view.rules.side_of
        return tuple(self.nil_attack if side_of[s] != view.my_side else 1.0
                     for s in range(view.rules.players))

    def _wants_blind_nil(self, view: PlayerView) -> bool:
        """Blind nil only when allowed by the option, and the side is well behind."""
        if not self.blind_nil:
            return False
        partner = view.partner
        if partner is not None:
            other = view.bids[partner]
            if other is not None and other.nil:
                return False
        mine = view.scores[view.my_side]
        best_other = max(s for i, s in enumerate(view.scores) if i != view.my_side)
        return best_other - mine >= 150

    # ------------------------------------------------------------------------ rare decisions

    def _draw(self, view: PlayerView) -> Action:
        """Two-player draw: keep the card if it adds more to the hand than the average
        unseen card would."""
        if BLIND_NIL in view.legal and self._wants_blind_nil(view):
            return BLIND_NIL
        drawn = view.drawn
        keep = Draw(True)
        discard = Draw(False)
        if drawn is None:
            return keep
        book = k.rulebook_of(view.rules)
        mine = view.hand_mask
        seen = mine | (1 << drawn)
        for card in view.discards:
            seen |= 1 << card
        unseen = k.cards_of(book.deck_mask & ~seen)
        base = estimate_tricks(mine, book)
        gain = estimate_tricks(mine | (1 << drawn), book) - base
        if not unseen:
            return keep
        average = sum(estimate_tricks(mine | (1 << c), book) - base for c in unseen) / len(unseen)
        return keep if gain >= average else discard

    def _kitty(self, view: PlayerView) -> Action:
        """Swap the 2 of clubs for the unseen kitty card: any card is worth at least as many
        tricks, unless the hand is heading for nil."""
        book = k.rulebook_of(view.rules)
        take = Exchange(True)
        if view.rules.nil and estimate_tricks(view.hand_mask, book) < 1.0:
            return Exchange(False)
        return take

    def _pass(self, view: PlayerView) -> Action:
        """Blind-nil pass: the nil bidder gives away its most dangerous cards (high spades,
        then high cards), the partner gives back its lowest side cards."""
        passes = [a for a in view.legal if isinstance(a, PassCards)]
        size = len(passes[0].cards)
        bid = view.bids[view.seat]
        hand = list(view.hand)
        if bid is not None and bid.nil:
            hand.sort(key=lambda c: (k.RANK[c] + (6 if c >= FIRST_SPADE else 0)), reverse=True)
        else:
            hand.sort(key=lambda c: (c >= FIRST_SPADE, k.RANK[c]))
        chosen = tuple(sorted(hand[:size]))
        for action in passes:
            if tuple(sorted(action.cards)) == chosen:
                return action
        return passes[0]


# ---------------------------------------------------------------------------- helpers

class _MoveSearch:
    """Paired statistics of the moves tried on the same deals; drops a move once the
    leader beats it by a clear margin on the deals both were played on."""

    def __init__(self, moves: list[int]) -> None:
        self.moves = moves
        self.active = list(moves)
        self.values: dict[int, list[float]] = {m: [] for m in moves}
        self.rounds = 0

    def add(self, values: list[float]) -> None:
        for move, value in zip(self.active, values, strict=True):
            self.values[move].append(value)
        self.rounds += 1
        if self.rounds >= 12 and self.rounds % 6 == 0 and len(self.active) > 2:
            self._prune()

    def mean(self, move: int) -> float:
        vals = self.values[move]
        return sum(vals) / len(vals) if vals else -math.inf

    def best(self) -> int:
        return max(self.active, key=lambda m: (self.mean(m), -self.moves.index(m)))

    def margin(self, move: int) -> tuple[float, float]:
        """(how far the best move's mean is above ``move``'s on the deals both were played
        on, the standard error of that difference); (0, 0) for the best move itself."""
        return self._gap(self.best(), move)

    def margins(self) -> dict[int, tuple[float, float]]:
        """``margin`` of every move tried, those dropped from the search too."""
        leader = self.best()
        return {move: self._gap(leader, move) for move in self.moves}

    def _gap(self, leader: int, move: int) -> tuple[float, float]:
        """``margin`` with the best move given. A move dropped from the search was played on
        the first deals only; the best, on every one."""
        if move == leader:
            return 0.0, 0.0
        vals = self.values[move]
        count = len(vals)
        diffs = [a - b for a, b in zip(self.values[leader][:count], vals, strict=True)]
        mean = sum(diffs) / count
        var = sum((d - mean) ** 2 for d in diffs) / max(count - 1, 1)
        return mean, math.sqrt(var / count)

    def habitual(self, tolerance: float, highest: bool = False) -> int:
        """The best card, or the lowest card of its suit (``highest``: the highest) whose
        value is within ``tolerance`` of it on the same deals: the card players' habits
        choose when the cards are worth the same (``clues``), which a partner reads."""
        leader = self.best()
        suit = SUIT_OF[leader]
        for move in sorted(self.active, reverse=highest):
            if SUIT_OF[move] != suit or (move <= leader if highest else move >= leader):
                continue
            if self.mean(leader) - self.mean(move) <= tolerance:  # (active: the same deals)
                return move
        return leader

    def _prune(self) -> None:
        leader = self.best()
        keep = []
        for move in self.active:
            gap, error = self._gap(leader, move)
            if gap > 1.0 and gap > 3.0 * error:
                continue
            keep.append(move)
        self.active = keep


def distinct_cards(view: PlayerView) -> list[int]:
    """The legal cards that differ in effect: of cards of one suit with no unseen card
    between them (they win and lose the same tricks), only the lowest."""
    cards = sorted(a.card for a in view.legal if isinstance(a, Play))
    book = k.rulebook_of(view.rules)
    live = book.deck_mask & ~view.played & ~view.hand_mask
    for _, card in view.trick:  # a card on the table separates two of ours too
        live |= 1 << card
    out: list[int] = []
    previous = -1
    for card in cards:
        if previous >= 0 and SUIT_OF[previous] == SUIT_OF[card]:
            between = ABOVE[previous] & ~ABOVE[card - 1] & ~(1 << card) if card else 0
            if not live & between:
                previous = card
                continue
        out.append(card)
        previous = card
    return out


def _playout_values(book: k.Rulebook, pos: k.Position, cards: list[int],
                    evaluate: k.Evaluator, guide: k.Guide, seed: int) -> list[float]:
    """The value of each card played from ``pos`` and the hand played out by ``guide``,
    every playout from the same ``seed`` (common random numbers)."""
    values = []
    for card in cards:
        p = pos.copy()
        k.play(book, p, card)
        values.append(evaluate(k.guided_playout(book, p, guide, random.Random(seed).random)))
    return values


def _bids_of(view: PlayerView) -> tuple[list[int], list[int]]:
    bids = [b.tricks if b is not None else 0 for b in view.bids]
    nils = [(k.BLIND if b.blind else k.NIL) if b is not None and b.nil else k.PLAIN
            for b in view.bids]
    return bids, nils


def _live_nils(view: PlayerView) -> list[int]:
    """The seats that bid nil (or blind nil) and have taken no trick yet."""
    return [seat for seat in range(view.rules.players) if live_nil(view, seat)]


def _position(view: PlayerView, holdings: list[int], bids: list[int],
              nils: list[int]) -> k.Position:
    n = view.rules.players
    return k.Position(hands=holdings[:n], leader=view.leader,
                      trick=[c for _, c in view.trick], broken=view.broken,
                      tricks=view.tricks, played=view.played, first=not view.history,
                      bids=bids, nils=nils, players=n)


def _first_leader(view: PlayerView, holdings: list[int]) -> int:
    return first_leader(view.rules, view.dealer, holdings[:view.rules.players])


def _nil_candidate(view: PlayerView, legal: list[Bid], book: k.Rulebook) -> bool:
    """Is nil worth trying beside the plain bids: legal, not far from a hand bid nil (or
    suicide), and not for a side well ahead whose bags it would bring to the limit?"""
    rules = view.rules
    nil_ok = NIL in legal and (rules.suicide or nil_likelihood(view.hand_mask, book) >= 0.05)
    if nil_breaks_bag_limit(view):
        nil_ok = False  # well ahead: a failed nil's bags would bring the penalty
    return nil_ok


def _bid_window(plain: list[Bid], guess: float) -> list[Bid]:
    """The plain bids worth trying: near the hand's count, at most five."""
    if not plain:
        return []
    ordered = sorted(plain, key=lambda b: (abs(b.tricks - guess), b.tricks))
    return sorted(ordered[:5], key=lambda b: b.tricks)


def _cover(view: PlayerView, plain: list[Bid], bid: Bid, shade: int) -> Bid:
    """``bid``, or ``shade`` tricks under it (within the legal plain bids) when the seat's
    partner has already bid nil: covering a nil costs tricks the playouts do not charge."""
    partner = view.partner
    other = None if partner is None else view.bids[partner]
    if not shade or bid.nil or other is None or not other.nil:
        return bid
    lower = [b for b in plain if b.tricks <= bid.tricks - shade]
    return max(lower, key=lambda b: b.tricks) if lower else min(plain, key=lambda b: b.tricks)


def _read_hands(view: PlayerView, holdings: list[int],
                book: k.Rulebook) -> list[tuple[float, float]]:
    """(trick count, nil likelihood) of each sampled hand whose seat has not bid yet."""
    return [(estimate_tricks(holdings[s], book), nil_likelihood(holdings[s], book))
            if bid is None and s != view.seat else (0.0, 0.0)
            for s, bid in enumerate(view.bids)]


def _fill_bids(view: PlayerView, reads: list[tuple[float, float]], mine: Bid,
               reading: BidReading | None = None, nil: NilReading | None = None,
               draws: list[float] | None = None) -> tuple[list[int], list[int]]:
    """Every seat's bid on a sampled deal: the real ones, ``mine``, and for the seats yet to
    bid, in the order they bid, the bid their sampled hand is read to make: nil when the
    seat's draw (``draws``, one a seat from 0 to 1; without them 0.5, the likelier call) is
    under ``nil``'s chance for the hand and its partner's bid, real or imagined, is not nil
    (without ``nil``, never); otherwise ``reading``'s bid (as the sampler reads the bids
    already made; without one, the hand's count), within the rules."""
    rules = view.rules
    n = rules.players
    bids = [0] * n
    nils = [k.PLAIN] * n
    chosen: list[Bid | None] = list(view.bids)
    chosen[view.seat] = mine
    for seat in range(n):
        bid = chosen[seat]
        if bid is None:
            continue
        bids[seat] = bid.tricks
        nils[seat] = (k.BLIND if bid.blind else k.NIL) if bid.nil else k.PLAIN
    for turn in range(n):
        seat = (view.dealer + 1 + turn) % n
        if chosen[seat] is not None:
            continue
        guess, likelihood = reads[seat]
        if rules.suicide:
            partner = rules.partner_of[seat]
            assert partner is not None
            other = chosen[partner]
            wants_nil = guess < reads[partner][0] if other is None else not other.nil
            if wants_nil:
                nils[seat] = k.NIL
                chosen[seat] = NIL
            else:
                bids[seat] = _plain_bid(rules, other, guess)
                chosen[seat] = Bid(bids[seat])
            continue
        partner = rules.partner_of[seat]
        beside = None if partner is None else chosen[partner]
        draw = 0.5 if draws is None else draws[seat]
        if (rules.nil and nil is not None and not (beside is not None and beside.nil)
                and draw < nil.chance(guess, likelihood)):
            nils[seat] = k.NIL
            chosen[seat] = NIL
        else:
            expected = guess if reading is None else reading.expected(guess)
            bids[seat] = _plain_bid(rules, None, expected)
            chosen[seat] = Bid(bids[seat])
    return bids, nils


def _plain_bid(rules: Rules, partner_bid: Bid | None, guess: float) -> int:
    """The legal plain bid nearest ``guess`` (``partner_bid`` matters in suicide)."""
    plain = [b.tricks for b in legal_bids(rules, partner_bid) if not b.nil]
    return min(max(round(guess), plain[0]), plain[-1])
