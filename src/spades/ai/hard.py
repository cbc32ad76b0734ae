"""Hard: determinized search over deals the seat could be facing.

Play is Perfect-Information Monte Carlo (PIMC) with rule-guided playouts, the method of GIB in
bridge and of the strong Skat programs: draw a deal consistent with the ``PlayerView``
(``sampler.DealSampler``: voids shown, passed cards, bids and plays as evidence, ``reading``
and ``clues``), try every distinct card on that same deal with the same playout seed
(common random numbers, so the comparison between cards is paired and low in noise), score
each finished hand with the rules and the game score (``kernel.Evaluator``), and repeat;
cards that trail the leader by a clear margin stop being sampled (successive rejection). In
the last tricks (with ``nil_solve_tricks``, more of them while an opponent's nil is alive) an
exact search (``solver.solve``) replaces the playouts on each deal; while a nil is alive the
search may take more playouts (``nil_search``). Of cards worth the same it
plays the one players' habits choose (the lowest of the suit; a live nil bidder's highest),
which is what it reads in other seats' plays.

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
    BLIND_NIL,
    NIL,
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

#: Playouts per decision by default; with a nil alive ``NIL_SEARCH`` times as many. On this
#: 2-core machine, unloaded (``cd bench && PYTHONPATH=../src python3 ai.py --levels hard
#: --deals 4``), the compiled search (``native``) takes 77 ms at the median and 485 ms at the
#: 95th percentile, the pure one 167 and 1,238 ms (the first cards of a hand are the slowest).
DEFAULT_ITERATIONS = 1200
#: With this many tricks left (the one on the table included) the endgame is solved exactly.
#: Deeper is level so far: from 6 tricks at 300 iterations, paired per deal against 4 on 600
#: deals against the frozen Normal (seed 23), +2.1 ± 2.4 points a deal not charged and +2.4 ±
#: 2.4 charged, in 3.3 times the time; at 300 iterations on the standard deals (``spades arena
#: hard:iterations=300,solve_tricks=6 frozen --deals 300 --seed 1``, then 2) +22.3 and +17.2
#: not charged (+34.2, +29.1 charged) where full strength with 4 gives +21.2 and +21.0 (+32.3,
#: +31.8); at full strength with at most 20 deals solved (``solve_deals``) +22.3 and +20.1 (+34.1,
#: +30.3), Hard's p95 352 and 372 ms.
SOLVE_TRICKS = 4
#: With this many tricks left the endgame is solved exactly while an opponent's nil is alive
#: (``nil_solve_tricks``): there one card sets the nil or lets it through. Deeper is an option,
#: not the default. At 300 iterations, 6 tricks (``bench/paired.py``, 600 deals against the
#: frozen Normal on each of seeds 23 and 22, paired per deal against 4) gained +2.6 ± 1.6 and
#: -0.1 ± 1.6 points a deal not charged (+1.2 ± 1.1 over the 1,200), the frozen Normal making
#: 68 of its 139 nils where it made 81 (seed 23; 63 of 123 either way on seed 22); the same
#: depth for every live nil, Hard's own too, gained nothing more (+0.1 ± 1.4, seed 23). At
#: full strength 6 tricks is level (``spades arena hard:nil_solve_tricks=6 frozen --deals 300
#: --seed 1``: +21.2 not charged, +32.0 charged, against +21.2 and +32.3 with 4; ``--seed 2``:
#: +20.7 and +31.2 against +21.0 and +31.8) and slow where it acts: in the 6 such decisions
#: of 12 deals (seed 1) it took 1.18 s at the median and 4.73 s at most, where 4 tricks took
#: 0.06 and 0.09 s. From 8 tricks, 20 deals at 300 iterations took 328 s (6: 25 s, 4: 16 s).
NIL_SOLVE_TRICKS = SOLVE_TRICKS
#: A card decision while a nil at the table is alive gets this many times the budget. There
#: one card may make or break the nil, 200 points apart, and the card values are the
#: noisiest of the hand: on a nil bidder's opening lead, three searches of 300 playouts
#: ranked its cards three different ways, each value about 40 deals deep. At 300
#: iterations, 4 times (600 deals against the frozen Normal, seed 23, paired per deal) gained
#: +3.2 ± 3.5 points a deal not charged (+2.7 ± 3.6 charged), Hard making 328 of its 396
#: nils where it made 317; at full strength (``spades arena hard:nil_search=4 frozen --deals
#: 300 --seed 1``, then 2) +23.5 and +22.7 not charged, +35.0 and +33.6 charged, where 1 (no
#: longer search) gave +21.2 and +21.0, +32.3 and +31.8; Hard's p95 745 and 775 ms (about 400
#: with 1). Twice the budget gave +22.1 and +33.7 on seed 1.
#: More bid playouts are level: 4 times the playouts for a bid when nil is a candidate
#: (300 iterations, 600 deals, seed 23, paired) gained -0.0 ± 2.2 points a deal not charged
#: and -0.0 ± 2.2 charged, Hard making 332 of 406 nils where it made 328 of 396.
#: Eight times (300 iterations, the same deals, paired against 4) gained +1.8 ± 2.5 not
#: charged (+1.6 ± 2.6 charged), the frozen Normal making 72 of its 139 nils where it made 78;
#: at full strength, compiled (``spades arena hard:nil_search=8 frozen --deals 300 --seed 1``)
#: +19.3 not charged and +30.6 charged where 4 gives +23.5 and +35.0, Hard making 81 % of its
#: 213 nils where it made 85 %: no better, so 4 stays.
NIL_SEARCH = 4.0
#: An exact solve of one deal counts as this many playouts of the budget.
_SOLVE_COST = 5
#: How many tricks stronger than their bids read (``reading``) the sampler deals the
#: opponents' hands: the playouts play them by rule, and players at the table take more
#: tricks than rule-played hands of their count do (against Hard the frozen Normal takes a
#: trick over its bid, ``spades arena --json``, from hands counted 0.4-0.6 over it,
#: ``bench/bid_fit.py``). Read at the line alone, a fourth seat bid 4 on KH JH 3H QD 9D 5D
#: 2D AC 6C 4C KS 5S 3S after 2, 2, 1 (``tests/ai/test_scenarios.py``), where 3 is worth
#: more against that table (such deals replayed with each bid: 3 beat 4 by 4.4 ± 7.3 points
#: with bags charged). The choice is close: with an edge of 0.5 Hard bid 4 there on 4 seeds
#: of 8, with 0.6 on 1 (as with the shade this reading replaced). Screened at 0.5, it was
#: level on points with the line alone (``spades arena hard:iterations=300 frozen --deals
#: 300``, seeds 22 and 21, paired per deal: +1.0 and +0.4 not charged, each ± 5.6).
#: Another edge for the bids alone (a scratch option) lost on the standard deals of seed 2
#: (``bench/screen.py``, paired per deal, not charged / charged): 0.3 -1.41 ± 2.59 / -1.63
#: ± 2.23 (38 sets of 600 where 31), 0.9 -2.30 ± 2.07 / -1.66 ± 1.95 (28 sets). So did
#: bidding the highest plain bid within a few points of the best (a lean up, since the
#: oracle's bids made more of their contracts): 2 points -0.14 ± 1.40 / -0.42 ± 1.26, 5
#: points -1.83 ± 2.75 / -2.18 ± 2.48 (48 sets).
OPPONENT_EDGE = 0.6
#: The share of the nils lost in bid playouts that the table would make, credited to the nil
#: candidate: the playouts' nil bidder and partner play by rule, the table's by search, and
#: guard a nil far better (Hard's nils made 89 % where its playouts made about 60 %,
#: ``bench/hard_bids.py``). Not all: the credit is a guess about nils still to be tried, and
#: at 0.5 Hard bid nil 2.5 times as often, made 69 % and lost points against the frozen
#: Normal; 0.2-0.3 gained 3-4 points a deal there and nearly 1 against Normal, whose nil
#: defence is better (``spades arena hard:iterations=300 frozen --deals 300 --seed 21``).
#: Playouts whose nil bidder never plays a random card (the guide's eps 0 for a live nil, a
#: scratch option) do not tell good nils from bad any better: in the bid playouts, paired per
#: deal on the standard deals of seed 2 (``bench/screen.py``), -1.09 ± 2.06 points a deal not
#: charged with this credit (189 nils bid, 162 made, where 168 and 149), -1.91 ± 1.86 with a
#: credit of 0.15 and -3.56 ± 2.24 with 0.1; in the play playouts, -1.05 ± 2.47 (146 of 168).
#: Nor does crediting only the nils a playout loses narrowly (a scratch option, the credit for
#: a nil lost by at most one trick, or two): -1.14 ± 2.31 and -1.27 ± 1.33 points a deal not
#: charged, -1.38 ± 2.39 and -1.37 ± 1.45 charged, on the same deals (Hard bid 145 and 160
#: nils and made 132 and 142); with a credit of 0.4 for the nils lost by one trick, -2.52 ±
#: 1.88 and -2.33 ± 1.92 (168 bid, 145 made). A nil bid before the partner's bid is made
#: more often (seed 2: 75 of 81, where 74 of 87 after it; seed 1: 85 of 91 and 92 of 106),
#: but a larger credit there alone is level (a scratch option; not charged, paired per deal):
#: 0.3, 0.35 and 0.45 gave +0.13 ± 1.25, +1.33 ± 1.54 and -0.11 ± 2.46 on seed 2 (180, 192 and
#: 217 nils bid), 0.35 and 0.45 gave -0.52 ± 1.37 and -0.89 ± 2.61 on seed 1 (215 and 244).
#: Nor does refusing a nil the playouts make less often than a floor, whatever its value
#: with the credit (a scratch option; not charged, paired per deal): a floor of 0.4 gave
#: +0.46 ± 1.21 on seed 2 and -0.13 ± 0.76 on seed 1 (8 and 5 runs bid differently), 0.45
#: -0.14 ± 1.51 and -2.38 ± 2.13, 0.5 -2.19 ± 2.12 on seed 2 (140 nils bid, 126 made).
#: A smaller credit for a nil bid after the partner's bid (where more are lost) is level
#: too on seed 2: 0.15 -0.34 ± 1.12, 0.2 -0.03 ± 0.70 (156 and 163 nils bid).
#: From NIL_ATTACK's adoption the credit is 0.1, not 0.25: playouts whose defence leads low
#: less often lose fewer of the nils the table makes, and need less of it (see there). With
#: that attack, 0.15 is level with 0.1 on seed 2 (+0.26 ± 1.14 not charged, +0.17 ± 1.14
#: charged, paired per deal; 225 nils bid, 186 made, where 214 and 179).
NIL_SAVED = 0.1
#: How often the opponents, on lead against our side's live nil, lead low at it in the bid
#: playouts (``kernel.Guide``'s ``attack``); the rest of the time they lead for their own
#: side. Playouts that always lead low broke nils the table made. Each nil of the standard
#: deals played out 200 times from the true deal, every bid as made (``bench/nil_playouts.py
#: CACHE --attack 1 0.3`` on ``bench/screen.py``'s runs of Hard against the frozen Normal):
#: on seed 2 Hard's 168 nils were given 0.674 at 1 and made 0.887 of the time, the 43 given
#: under 0.3 made 0.91; the log loss of that chance was 0.838 at 1 and 0.464 at 0.3 (seed 1,
#: 197 nils: 0.615 and 0.379). The frozen Normal's nils, attacked by Hard's search, are
#: foreseen better at 1 (seed 2: 0.651 against 0.829; seed 1: 0.878 against 1.086), so our
#: side's seats attack at 1. On points, in the bids only, paired per deal against 1 with a
#: credit of 0.25 (``bench/screen.py hard hard:nil_attack=0.3,nil_saved=0.1 --deals 300
#: --seed S``, not charged / charged): seed 2 +1.48 ± 3.17 / +1.73 ± 3.15 (Hard bid 214
#: nils and made 179, where 168 and 149; set on 27 of 600 contracts, where 31), seed 1 +0.80
#: ± 3.02 / +0.95 ± 3.02 (243 and 208, where 197 and 177; 33 sets, where 38). On seed 2, 0.3
#: with the credit at 0.25 gave +1.24 ± 4.04 / +1.52 ± 4.06 (256 nils, 203 made), 0 with no
#: credit +0.82 ± 3.59 / +0.95 ± 3.60 (235, 190), and the same attack in the play's playouts
#: too (``--plays``) +0.94 ± 3.86 / +1.52 ± 4.00 (214, 181): the play keeps 1. Beside 0.3
#: (paired against it, seed 2, credit 0.1): 0.2 +0.12 ± 1.51 / -0.25 ± 1.50 (225 nils, 185
#: made; 24 sets), 0.5 -0.88 ± 2.14 / -0.91 ± 2.15 (182, 159; 32 sets).
NIL_ATTACK = 0.3
#: A hand with this many spades or more gets no share of its lost nil playouts
#: (``NIL_SAVED``; None: every nil hand gets it). What the table does better than the playouts
#: is discard and cover; a nil long in spades is lost to spades forced on it late, which no
#: discard saves. With the credit for all, Hard made 181 of its 213 nils against the frozen
#: Normal but 10 of its 24 with four spades (``spades arena hard frozen --deals 300 --seed
#: 1``). With 4: 177 of 197, 6 of 8 with four spades; +25.8 points a deal not charged and
#: +37.3 charged where the credit for all gave +23.5 and +35.0 (paired per deal: +2.3 ± 1.8
#: and +2.3 ± 1.7); ``--seed 2`` +23.2 and +34.1 where it gave +22.7 and +33.6, Hard making
#: 149 of 168 nils where it made 156 of 180. Playouts with no random cards (``kernel.Guide``'s
#: eps 0, a scratch option) and the credit for all bid more nils and lost more of them: -5.1
#: ± 6.7 not charged, -7.0 ± 6.6 charged over the first 150 of those deals (Hard made 97 of
#: 122 nils where it made 91 of 105). Three or five spades lose to four on seed 2
#: (``bench/screen.py hard hard:credit_spades=3 hard:credit_spades=5 --deals 300 --seed 2``,
#: paired per deal, not charged): -1.92 ± 1.91 (137 nils bid, 123 made) and -0.51 ± 1.48
#: (180, 156).
CREDIT_SPADES: int | None = 4
#: A seat whose partner has already bid nil bids this many tricks under the bid its playouts
#: choose. Its playouts count its tricks too high: covering costs tricks at the table that the
#: rule-played playouts do not charge (against the frozen Normal, ``bench/hard_bids.py
#: --deals 150 --iterations 300 --seed 21``: playouts 5.20, bid 4.49, took 4.32, side set
#: 36 % of the time, where other seats' playouts overcount by 0.2-0.4). One under took the
#: sets of such contracts from 35 % to 15 % (600 deals, seed 22, 300 iterations) and gained
#: +1.4 and +0.5 points a deal on seeds 22 and 21 (``spades arena hard:iterations=300
#: frozen``); at full strength it is level on points (seeds 1 and 2: -0.4 and -0.8) with
#: Hard's sets from 10 % to 7-8.5 %. Lowering every bid instead (a playout's trick taken
#: back 30 % of the time, 80 % when covering) lost 1.8-2.5. Two under lost: -1.1 ± 1.6 points a
#: deal not charged, -2.3 ± 1.7 charged (``bench/paired.py hard:iterations=300
#: hard:iterations=300,cover_shade=2 --deals 600 --seed 23``), Hard making 324 of its 396 nils
#: where it made 328.
COVER_SHADE = 1
#: How much a play that breaks a habit (``clues``) counts against a deal: a sampled deal at
#: odds with a clue keeps this much less of its weight. The habits are near certain of Normal
#: and the frozen Normal (a lowest-loser clue broken by 0.0-0.1 % of their true hands, by 8-10
#: % of deals drawn without it, ``bench/clues.py --styles normal,frozen --deals 30``), so the
#: reading is firm; read this way the samples gave each unseen card's true holder 0.480 in
#: the frozen Normal's hands where bids alone gave 0.459 (and no evidence 0.429). On points
#: it is level at 300 iterations (``spades arena hard:iterations=300 frozen --deals 300
#: --seed 22``, paired per deal against trust 0: with Hard playing by habit, +0.3 ± 4.6 not
#: charged; before Hard did, reading its Hard partner cost -2.7 ± 4.9), and at full strength
#: on the same deals as the code without it (``--seed 1``: +21.2 against +18.6 not charged,
#: +32.3 against +28.7 charged; ``--seed 2``: +21.0 against +21.8, +31.8 against +32.7).
PLAY_TRUST = 0.9
#: Points within which a card of the suit the habits prefer (the lowest; a live nil
#: bidder's highest) is played instead of the best: such cards are worth the same, and
#: playing by habit keeps honours and lets a partner read the hand (``clues``). Without it
#: Hard broke its lowest-loser clues about as often as chance (9.9 % of its true hands, 12.6
#: % of deals drawn without the clue); with it 4.2 % (14.5 %), and its nil ducks 2.9 % (13.3
#: %) (``bench/clues.py --styles hard:iterations=100 --deals 8``). Level on points (-0.2 ±
#: 2.0 per deal, the screening above, paired; the lowest card only).
HABIT_TOLERANCE = 0.5

# Three habits of the table, fitted but not adopted (``kernel.Guide``'s ``ruff``, ``second``
# and ``trump``, given to Hard's playouts by scratch options, removed; the playouts keep
# their old habits). Wanting tricks with no nil alive, the table ruffs in second seat about
# half the time (Hard 0.55, the frozen Normal 0.52 on seed 2), plays to win there with a
# sure winner 0.63 and 0.44 and with an unsure one 0.41 and 0.48, and leads a spade 0.31 and
# 0.52 of the time when it holds spades and other suits (``bench/guide_fit.py CACHE``),
# where the playouts ruffed and took sure winners always, and never led a spade but a boss.
# Fitted, the playouts foresee the table's contracts better: at ruff 0.5, second 0.5 and
# trump 0.3 the log loss of their chance of Hard's 600 contracts on seed 2 falls from 0.247
# to 0.216, of the frozen Normal's from 0.274 to 0.233 (seed 1: 0.308 to 0.284, 0.200 to
# 0.181). On points they lose, paired per deal against the defaults (``bench/screen.py hard
# VARIANT --deals 300 --seed 2``, not charged / charged): ruff and second at 0.5 in the bids
# and the play (``--plays``) -3.04 ± 3.52 / -2.94 ± 3.36 (34 sets of 600 contracts, where
# 27); all three in the bids only -1.94 ± 2.52 / -1.37 ± 2.49; trump 0.3 in the bids only
# -1.59 ± 2.41 / -1.51 ± 2.34, and on seed 1 +0.03 ± 2.85 / +0.37 ± 2.84. Playouts closer to
# the table's habits rank the bids and cards no better.

# A nil bid read by a fit to the table's nils, not adopted (a scratch option; the sampler
# keeps ``sampler.nil_likelihood``). Styles bid nil on different hands: over 2,000 auctions
# of a random mix (Easy, Normal, the frozen Normal, Hard at 300 iterations; partnership),
# fitted by iterative proportional fitting to random hands (the factors a hand's weight
# needs for the weighted deals to hold each feature as the nil hands do), a side ace weighs
# 0.41 in Hard's nils (391 of them) but 0.016 in the frozen Normal's (131) and Normal's (89);
# the king of spades 0.21 and 0.07; four spades 0.17 and 0.12 of the best count. Fitted
# on the mix, each style alike (ace 0.083, side king 0.24, king of spades 0.10, queen 0.20),
# the samplers of the bids and the play lost on the standard deals of seed 2 (``bench/
# screen.py hard hard:nil_fit=true --plays``, paired per deal): -2.07 ± 3.73 not charged,
# -1.04 ± 4.04 charged. The frozen Normal's nils paid more to Hard's side (+1.06 a deal
# where +0.63); Hard's own paid less (made 173 of 213 where 179 of 214): read as the mix bids
# them, a Hard partner's nil is dealt too few aces, and its cover plays for the wrong cards.

# The bids still to come on a sampled deal (``_fill_bids``) go nil by the chance the mix bids
# nil with (``reading.NIL_FITS``, fitted by ``bench/bid_fit.py``), one draw a seat and deal;
# the rule before it (a count under 1.2, a nil likelihood of 0.4 or more) imagined nil on
# 3.8 % of random hands where the mix bids 7.9 %. Screened on the standard deals, bids only,
# paired per deal against that rule (``bench/screen.py hard hard:nil_search=4 --deals 300
# --seed S``, the variant's options being the defaults), not charged / charged: seed 2 +0.69
# ± 1.43 / +0.61 ± 1.45 (64 of 600 runs bid differently; Hard made 182 of 214 nils where
# 179; set on 26 contracts where 27), seed 1 +0.42 ± 1.62 / +0.68 ± 1.67 (56 runs; 209 of 243
# nils where 208; 31 sets where 33). In all, +25.34 ± 5.20 / +36.45 ± 5.42 a deal against the
# frozen Normal on seed 2, +27.03 ± 5.31 / +38.93 ± 5.40 on seed 1.


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
    name: str = "hard"
    #: The last bid's probe: the mean tricks the seat took in the bid playouts (for
    #: analysis, ``bench/hard_bids.py``; it plays no part in any decision).
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
            if len(legal) == 1:
                return legal[0]
            return self._play(view, r, deadline)
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

    def _play(self, view: PlayerView, r: random.Random, deadline: float | None) -> Action:
        book = k.rulebook_of(view.rules)
        legal: dict[int, Play] = {int(a.card): a for a in view.legal if isinstance(a, Play)}
        try:
            sampler = DealSampler(view, reading=self._reading(view), edge=self.edge,
                                  trust=self.trust)
        except ImpossibleDeal:  # a view that contradicts itself: play as the guide would
            return self._guided_fallback(view, r, legal)
        bids, nils = _bids_of(view)
        # Bags cost from the first trick, not only once the side has made its bid. "Make your
        # bid first" (bags free in the play until then, a scratch option) traded points with
        # bags charged for points without: paired per deal on the standard deals of seed 2
        # (``bench/screen.py --plays``), +1.66 ± 3.97 points a deal not charged, -11.23 ± 4.15
        # charged, Hard set on 24 of its 600 contracts where 31 (how much of that is its own
        # bags and how much the opponents' was not measured). Every bag at half its share, its
        # own and the opponents' (a scratch option of ``Evaluator``), on the same deals:
        # in the play only -0.48 ± 3.17 not charged, -4.68 ± 3.29 charged (434 runs played
        # differently); in the bids and the play -3.85 ± 4.02 and -7.00 ± 4.09 (Hard bid 195
        # nils and made 163, where 168 and 149). Nor does seeing every hand raise the figure
        # without bags: Hard handed the true deal for its card play (``bench/oracle.py``)
        # gains +9.37 ± 4.96 charged and -0.93 ± 5.05 not charged (seed 1: +8.70 ± 5.15 and
        # -0.30 ± 5.39), so what its search would gain from better reading goes to the bags,
        # as its evaluation asks.
        evaluate = k.Evaluator(book, view.my_side, bids=bids, nils=nils, scores=view.scores,
                               bags=view.bags, win_bonus=self.win_bonus)
        guide = k.Guide(book, bids, nils)
        moves = distinct_cards(view)
        if len(moves) == 1:
            return legal[moves[0]]
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
        return legal[search.habitual(self.tolerance, highest=ducking)]

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

        Bags are charged their full share here too. Screened on the standard deals of seed 2
        (``bench/screen.py``, paired per deal, not charged / charged; scratch options of
        ``Evaluator``, removed): the seat's own bags at 1.5 times their share -0.82 ± 3.03 /
        -1.62 ± 2.95 (152 nils bid, 46 sets of 600 where 168 and 31); every bag at 1.5
        times -1.51 ± 2.75 / -2.37 ± 2.65; the opponents' bags at half +0.36 ± 0.43 / +0.43 ±
        0.41 (10 runs bid differently). Played out on the true deal instead of sampled ones
        (``bench/oracle.py:where=bid``) the bids lose -6.29 ± 6.25 / -6.93 ± 6.17 (222 nils,
        163 made; 70 sets): on a deal it knows, the rule-played playouts promise nils the
        table does not make, which the sampler's spread and the opponents' ``edge`` offset.
        Its contracts gain (made by both sides: +3.21 a deal against Hard's -0.87, by
        ``--where``); its nils lose (+5.58 a deal from 176 nils only it bid, against +12.95
        from Hard's 118)."""
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
        values: list[float] = []
        taken: list[int] = []
        for bid in bids_tried:
            bids, nils = _fill_bids(view, reads, bid, reading, nil_reading, draws)
            pos = k.Position(hands=holdings[:n], leader=leader, tricks=[0] * n, bids=bids,
                             nils=nils, players=n)
            evaluate = k.Evaluator(book, view.my_side, bids=bids, nils=nils, scores=view.scores,
                                   bags=view.bags, win_bonus=self.win_bonus)
            guide = k.Guide(book, bids, nils, attack=attack)
            tricks = k.guided_playout(book, pos, guide, random.Random(seed).random)
            values.append(evaluate(tricks))
            taken.append(tricks[view.seat])
        return values, taken

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
            hand.sort(key=lambda c: (k.RANK[c] + (6 if c >= k.SPADE else 0)), reverse=True)
        else:
            hand.sort(key=lambda c: (c >= k.SPADE, k.RANK[c]))
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

    def habitual(self, tolerance: float, highest: bool = False) -> int:
        """The best card, or the lowest card of its suit (``highest``: the highest) whose
        value is within ``tolerance`` of it on the same deals: the card players' habits
        choose when the cards are worth the same (``clues``), which a partner reads."""
        leader = self.best()
        suit = k.SUIT_OF[leader]
        for move in sorted(self.active, reverse=highest):
            if k.SUIT_OF[move] != suit or (move <= leader if highest else move >= leader):
                continue
            if self.mean(leader) - self.mean(move) <= tolerance:  # (active: the same deals)
                return move
        return leader

    def _prune(self) -> None:
        leader = self.best()
        lead = self.values[leader]
        keep = []
        for move in self.active:
            if move == leader:
                keep.append(move)
                continue
            vals = self.values[move]
            count = len(vals)
            diffs = [a - b for a, b in zip(lead[-count:], vals, strict=True)]
            mean = sum(diffs) / count
            var = sum((d - mean) ** 2 for d in diffs) / max(count - 1, 1)
            if mean > 1.0 and mean > 3.0 * math.sqrt(var / count):
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
        if previous >= 0 and k.SUIT_OF[previous] == k.SUIT_OF[card]:
            between = k.ABOVE[previous] & ~k.ABOVE[card - 1] & ~(1 << card) if card else 0
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
