"""The prize pool, the payout table and shared places (docs/rules.md, rules 9, 10, 15; Money; Defaults).

The prize pool paid is ``max(collected, guarantee)``; the difference is the
house's overlay (:class:`PrizePool`). Each prize is the pool times its place's
share, rounded down to the cent, and the cents left over go to first place, so
the prizes add up to the pool exactly (:func:`prize_amounts`). Players
eliminated in the same hand are placed by the chips they started the hand with;
equal starting stacks share their places (:func:`place_bust_outs`).

Payout table
------------
Shares are exact fractions: integer parts per billion (``PARTS``) of the pool,
per place. The table depends only on the number of entrants (a tournament may
instead fix its own percentages, ``TournamentConfig.payout_percent``, as a
Sit&Go's 50/30/20 does). It follows docs/rules.md, 'Defaults':

* about 15 % of the field is paid: a band of entrants from ``6 * K`` pays ``K``
  places (16.7 % at the bottom of a band, 11-15 % at its top);
* the smallest prize is at least 1.75 times an entrant's contribution to the
  pool at the bottom of each band (so at least 1.5 buy-ins even when a 9 %
  commission is taken), and more higher in the band;
* the winner gets about 20-25 % of the pool in large fields (20.2 % at 250,000);
* small fields: 2-4 entrants, winner takes all; 5-8, 65/35; 9-23, 50/30/20.

Places 1-9 are paid one by one; below the final table places are paid in
groups with one prize each: 10-12, 13-15, ... (threes) to 27, then nines to 99,
then groups of about an eighth of the places above them (a multiple of 9):
100-117, 118-135, 136-153, 154-180, ... A band's places paid ``K`` is always
the end of a group.

From 24 entrants on, a band's shares are built from its lowest number of
entrants ``n = 6 * K``, in parts per billion: each place gets the minimum
``m = ceil(PARTS * 7 / (4 * n))`` plus its part of the rest,
``PARTS - K * m``, in proportion to a place weight ``w(i) = i ** (-4/3)``
(computed exactly in integers: ``10**18 // (i * icbrt(i * 10**18))``); a group
gets the average weight of its places (rounded down). Each place's share is
rounded down and the parts left over go to first place. The rows below are
produced by :func:`payout_summary` (a test checks they match):

.. code-block:: text

           entrants   paid       1       2       3       4       5       6       7       8       9    last  x entry
                2-4      1 100.0000       -       -       -       -       -       -       -       - 100.0000    2.00
                5-8      2 65.0000 35.0000       -       -       -       -       -       -       - 35.0000    1.75
               9-23      3 50.0000 30.0000 20.0000       -       -       -       -       -       - 20.0000    1.80
              24-29      4 46.9639 23.0356 16.4607 13.5396       -       -       -       -       - 13.5396    3.24
              30-35      5 43.0665 20.6093 14.4387 11.6972 10.1881       -       -       -       - 10.1881    3.05
              36-41      6 40.3818 18.9575 13.0706 10.4552  9.0156  8.1190       -       -       -  8.1190    2.92
              42-47      7 38.4051 17.7542 12.0798  9.5588  8.1712  7.3070  6.7235       -       -  6.7235    2.82
              48-53      8 36.8802 16.8349 11.3269  8.8799  7.5329  6.6941  6.1277  5.7229       -  5.7229    2.74
              54-71      9 35.6626 16.1073 10.7341  8.3468  7.0328  6.2144  5.6619  5.2671  4.9726  4.9726    2.68
              72-89     12 33.1151 14.6077  9.5224  7.2630  6.0194  5.2449  4.7220  4.3483  4.0696  3.6957    2.66
             90-107     15 31.4852 13.6677  8.7719  6.5968  5.3995  4.6539  4.1505  3.7907  3.5224  2.8245    2.54
            108-125     18 30.3362 13.0162  8.2572  6.1428  4.9790  4.2542  3.7648  3.4151  3.1542  2.2796    2.46
            126-143     21 29.4739 12.5344  7.8799  5.8120  4.6737  3.9648  3.4862  3.1442  2.8891  1.9075    2.40
            144-161     24 28.7977 12.1614  7.5901  5.5592  4.4413  3.7451  3.2751  2.9391  2.6886  1.6377    2.35
            162-215     27 28.2500 11.8625  7.3597  5.3592  4.2580  3.5722  3.1092  2.7783  2.5315  1.4335    2.32
            216-269     36 27.0782 11.2346  6.8812  4.9471  3.8825  3.2194  2.7718  2.4519  2.2133  1.0714    2.31
            270-323     45 26.3066 10.8307  6.5783  4.6891  3.6491  3.0015  2.5643  2.2518  2.0187  0.8307    2.24
            324-377     54 25.7506 10.5449  6.3667  4.5105  3.4887  2.8524  2.4228  2.1157  1.8867  0.6775    2.19
            378-431     63 25.3256 10.3297  6.2092  4.3785  3.3709  2.7433  2.3197  2.0168  1.7910  0.5715    2.16
            432-485     72 24.9873 10.1605  6.0865  4.2765  3.2802  2.6597  2.2408  1.9414  1.7181  0.4938    2.13
            486-539     81 24.7098 10.0232  5.9878  4.1949  3.2080  2.5934  2.1785  1.8819  1.6607  0.4345    2.11
            540-593     90 24.4766  9.9090  5.9062  4.1278  3.1489  2.5393  2.1277  1.8336  1.6142  0.3877    2.09
            594-701     99 24.2772  9.8121  5.8374  4.0716  3.0996  2.4943  2.0856  1.7935  1.5756  0.3500    2.07
            702-809    117 23.9517  9.6556  5.7274  3.9821  3.0215  2.4232  2.0193  1.7306  1.5153  0.2952    2.07
            810-917    135 23.6952  9.5337  5.6425  3.9137  2.9621  2.3695  1.9694  1.6834  1.4702  0.2531    2.05
           918-1079    153 23.4861  9.4354  5.5747  3.8594  2.9152  2.3273  1.9303  1.6466  1.4350  0.2214    2.03
          1080-1241    180 23.2340  9.3181  5.4944  3.7956  2.8605  2.2782  1.8850  1.6040  1.3944  0.1872    2.02
          1242-1403    207 23.0331  9.2257  5.4317  3.7462  2.8184  2.2405  1.8504  1.5716  1.3637  0.1613    2.00
          1404-1619    234 22.8681  9.1503  5.3811  3.7065  2.7847  2.2106  1.8231  1.5461  1.3395  0.1416    1.98
          1620-1835    270 22.6875  9.0687  5.3266  3.6640  2.7489  2.1790  1.7942  1.5192  1.3141  0.1222    1.97
          1836-2105    306 22.5394  9.0022  5.2826  3.6300  2.7203  2.1538  1.7714  1.4980  1.2942  0.1071    1.96
          2106-2375    351 22.3868  8.9343  5.2379  3.5957  2.6917  2.1287  1.7487  1.4770  1.2744  0.0929    1.95
          2376-2699    396 22.2605  8.8785  5.2014  3.5678  2.6686  2.1086  1.7305  1.4603  1.2588  0.0819    1.94
          2700-3077    450 22.1340  8.8229  5.1654  3.5404  2.6460  2.0890  1.7129  1.4441  1.2436  0.0717    1.93
          3078-3509    513 22.0118  8.7696  5.1310  3.5145  2.6247  2.0705  1.6964  1.4290  1.2296  0.0626    1.92
          3510-3995    585 21.8962  8.7195  5.0990  3.4904  2.6050  2.0536  1.6813  1.4152  1.2168  0.0547    1.92
          3996-4535    666 21.7885  8.6731  5.0694  3.4683  2.5870  2.0382  1.6676  1.4028  1.2053  0.0478    1.91
          4536-5129    756 21.6889  8.6305  5.0424  3.4482  2.5708  2.0243  1.6554  1.3917  1.1950  0.0419    1.90
          5130-5777    855 21.5973  8.5914  5.0178  3.4301  2.5561  2.0118  1.6444  1.3818  1.1859  0.0369    1.89
          5778-6533    963 21.5132  8.5557  4.9954  3.4136  2.5429  2.0007  1.6346  1.3729  1.1778  0.0327    1.89
          6534-7397   1089 21.4305  8.5208  4.9736  3.3976  2.5301  1.9899  1.6252  1.3645  1.1700  0.0288    1.88
          7398-8369   1233 21.3512  8.4875  4.9528  3.3825  2.5181  1.9798  1.6163  1.3566  1.1629  0.0254    1.87
          8370-9449   1395 21.2763  8.4561  4.9334  3.3684  2.5069  1.9704  1.6082  1.3493  1.1563  0.0223    1.87
         9450-10637   1575 21.2063  8.4268  4.9154  3.3553  2.4966  1.9618  1.6008  1.3427  1.1502  0.0197    1.86
        10638-11987   1773 21.1412  8.3998  4.8988  3.3433  2.4872  1.9540  1.5940  1.3367  1.1448  0.0175    1.86
        11988-13499   1998 21.0786  8.3738  4.8829  3.3319  2.4782  1.9465  1.5876  1.3310  1.1397  0.0155    1.85
        13500-15227   2250 21.0192  8.3492  4.8679  3.3212  2.4698  1.9396  1.5817  1.3258  1.1350  0.0137    1.85
        15228-17171   2538 20.9618  8.3256  4.8535  3.3109  2.4618  1.9330  1.5760  1.3208  1.1305  0.0121    1.84
        17172-19331   2862 20.9071  8.3031  4.8398  3.3012  2.4543  1.9268  1.5707  1.3162  1.1264  0.0107    1.84
        19332-21761   3222 20.8558  8.2820  4.8271  3.2921  2.4472  1.9211  1.5658  1.3119  1.1226  0.0095    1.84
        21762-24515   3627 20.8067  8.2619  4.8149  3.2835  2.4406  1.9156  1.5612  1.3079  1.1190  0.0084    1.83
        24516-27593   4086 20.7595  8.2426  4.8033  3.2754  2.4343  1.9105  1.5569  1.3041  1.1156  0.0074    1.83
        27594-31049   4599 20.7147  8.2243  4.7924  3.2676  2.4283  1.9056  1.5528  1.3006  1.1125  0.0066    1.83
        31050-34937   5175 20.6720  8.2069  4.7820  3.2603  2.4227  1.9011  1.5489  1.2972  1.1095  0.0058    1.82
        34938-39311   5823 20.6311  8.1903  4.7720  3.2533  2.4174  1.8968  1.5453  1.2941  1.1067  0.0052    1.82
        39312-44225   6552 20.5921  8.1745  4.7626  3.2467  2.4123  1.8927  1.5419  1.2911  1.1041  0.0046    1.82
        44226-49787   7371 20.5547  8.1593  4.7535  3.2404  2.4075  1.8888  1.5386  1.2883  1.1016  0.0041    1.81
        49788-56051   8298 20.5187  8.1448  4.7448  3.2343  2.4029  1.8851  1.5355  1.2856  1.0993  0.0036    1.81
        56052-63071   9342 20.4842  8.1308  4.7366  3.2286  2.3985  1.8816  1.5326  1.2831  1.0971  0.0032    1.81
        63072-70955  10512 20.4514  8.1176  4.7287  3.2231  2.3944  1.8782  1.5298  1.2807  1.0950  0.0028    1.81
        70956-79865  11826 20.4201  8.1050  4.7212  3.2179  2.3904  1.8751  1.5272  1.2785  1.0930  0.0025    1.80
        79866-89855  13311 20.3901  8.0929  4.7141  3.2130  2.3867  1.8721  1.5247  1.2764  1.0912  0.0022    1.80
       89856-101087  14976 20.3614  8.0813  4.7072  3.2082  2.3831  1.8692  1.5223  1.2743  1.0894  0.0020    1.80
      101088-113723  16848 20.3341  8.0702  4.7007  3.2037  2.3797  1.8665  1.5200  1.2724  1.0877  0.0017    1.80
      113724-127979  18954 20.3070  8.0595  4.6943  3.1993  2.3764  1.8638  1.5178  1.2705  1.0861  0.0015    1.79
      127980-144017  21330 20.2819  8.0492  4.6883  3.1951  2.3732  1.8614  1.5158  1.2688  1.0846  0.0014    1.79
      144018-162053  24003 20.2575  8.0395  4.6826  3.1912  2.3702  1.8590  1.5138  1.2671  1.0831  0.0012    1.79
      162054-182357  27009 20.2353  8.0303  4.6772  3.1874  2.3674  1.8568  1.5120  1.2656  1.0818  0.0011    1.79
      182358-205199  30393 20.2126  8.0212  4.6718  3.1838  2.3647  1.8546  1.5102  1.2640  1.0805  0.0009    1.79
      205200-230849  34200 20.1904  8.0125  4.6667  3.1803  2.3620  1.8525  1.5085  1.2626  1.0792  0.0008    1.79
      230850-259739  38475 20.1712  8.0045  4.6620  3.1770  2.3596  1.8505  1.5069  1.2612  1.0780  0.0007    1.78

Columns: entrants (band), places paid, the share of places 1-9 in percent of
the pool, the last place's share and the last place's prize in entrants'
contributions at the bottom of the band. The full table, every group, comes
from :func:`payout_table_markdown`. Bands continue the same way beyond 250,000.

>>> PrizePool(collected=80_000, guarantee=100_000).overlay
20000
>>> prize_amounts(1_001, payout_for(9))
(501, 300, 200)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from itertools import groupby, pairwise
from typing import Final

from tourney.domain.ledger import Entry, EntryKind, overlay_account, player_account, pool_account, transfer

PARTS: Final = 1_000_000_000
"""A payout share is an integer number of parts per billion of the pool."""
PERCENT: Final = PARTS // 100
MIN_CASH_NUM: Final = 7
MIN_CASH_DEN: Final = 4
"""The smallest prize: 7/4 of an entrant's pool contribution at the bottom of a band."""
ENTRANTS_PER_PAID_PLACE: Final = 6
MAX_DOCUMENTED_ENTRANTS: Final = 250_000

_SMALL_FIELDS: Final[tuple[tuple[int, tuple[int, ...]], ...]] = (
    (2, (100,)),
    (5, (65, 35)),
    (9, (50, 30, 20)),
)
"""Hand-set rows: (lowest entrants, percent per place), up to 23 entrants."""
_FIRST_GENERATED_BAND: Final = 24


@dataclass(frozen=True)
class PrizePool:
    """The pool paid out: ``max(collected, guarantee)``; the house pays the overlay (docs/rules.md, Money)."""

    collected: int
    guarantee: int = 0

    def __post_init__(self) -> None:
        if self.collected < 0 or self.guarantee < 0:
            raise ValueError("collected and guarantee are non-negative cents")

    @property
    def total(self) -> int:
        return max(self.collected, self.guarantee)

    @property
    def overlay(self) -> int:
        return self.total - self.collected


@dataclass(frozen=True)
class PayoutGroup:
    """Places ``first`` to ``last`` each get ``parts`` per billion of the pool."""

    first: int
    last: int
    parts: int

    @property
    def size(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Payout:
    """A payout: groups of places, best first, whose shares add up to ``PARTS`` exactly."""

    groups: tuple[PayoutGroup, ...]

    def __post_init__(self) -> None:
        if not self.groups or self.groups[0].first != 1:
            raise ValueError("a payout starts at first place")
        if any(g.parts <= 0 or g.last < g.first for g in self.groups):
            raise ValueError("every paid place gets a positive share")
        for before, after in zip(self.groups, self.groups[1:], strict=False):
            if after.first != before.last + 1 or after.parts > before.parts:
                raise ValueError("payout groups are consecutive and never pay a worse place more")
        if sum(g.size * g.parts for g in self.groups) != PARTS:
            raise ValueError("payout shares must add up to the whole pool")

    @property
    def places_paid(self) -> int:
        return self.groups[-1].last

    def parts_for(self, place: int) -> int:
        """The share of ``place`` (0 outside the money)."""
        for group in self.groups:
            if group.first <= place <= group.last:
                return group.parts
        return 0


def _icbrt(value: int) -> int:
    """The integer cube root (floor) of ``value``; exact (the float is only a first guess)."""
    root: int = round(float(value) ** (1 / 3))
    while root**3 > value:
        root -= 1
    while (root + 1) ** 3 <= value:
        root += 1
    return root


def _weight(place: int) -> int:
    """``place ** (-4/3)`` scaled by 10**18, in integers."""
    return 10**18 // (place * _icbrt(place * 10**18))


def _group_ends() -> Iterator[int]:
    """Ends of the place groups: 1..9, then threes to 27, nines to 99, then about an eighth more each."""
    yield from range(1, 10)
    end = 9
    while True:
        end += 3 if end < 27 else 9 if end < 99 else 9 * -(-end // 72)
        yield end


def _paid_places(entrants: int) -> int:
    if entrants < _FIRST_GENERATED_BAND:
        return len(_small_field_percent(entrants))
    ends = _group_ends()
    paid, end = 0, next(ends)
    while end * ENTRANTS_PER_PAID_PLACE <= entrants:
        paid, end = end, next(ends)
    return paid


def _small_field_percent(entrants: int) -> tuple[int, ...]:
    return [percent for lowest, percent in _SMALL_FIELDS if lowest <= entrants][-1]


def fixed_payout(percent: Sequence[int]) -> Payout:
    """A tournament's own payout: whole percents per place, best first (``TournamentConfig.payout_percent``).

    The payout rule is :class:`Payout`'s: a ``ValueError`` names what breaks it.
    ``TournamentConfig`` builds this when it is made, so a table the rule refuses
    never reaches a tournament.

    >>> fixed_payout((10, 90))
    Traceback (most recent call last):
    ...
    ValueError: payout groups are consecutive and never pay a worse place more
    """
    return Payout(tuple(PayoutGroup(place, place, p * PERCENT) for place, p in enumerate(percent, start=1)))


@lru_cache(maxsize=256)
def _generated(places: int) -> Payout:
    entrants = places * ENTRANTS_PER_PAID_PLACE
    minimum = -(-PARTS * MIN_CASH_NUM // (MIN_CASH_DEN * entrants))
    spans: list[tuple[int, int]] = []
    first = 1
    for end in _group_ends():
        if end > places:
            break
        spans.append((first, end))
        first = end + 1
    weights = [sum(_weight(i) for i in range(a, b + 1)) // (b - a + 1) for a, b in spans]
    total_weight = sum((b - a + 1) * w for (a, b), w in zip(spans, weights, strict=True))
    rest = PARTS - places * minimum
    parts = [minimum + rest * w // total_weight for w in weights]
    parts[0] += PARTS - sum((b - a + 1) * p for (a, b), p in zip(spans, parts, strict=True))
    return Payout(tuple(PayoutGroup(a, b, p) for (a, b), p in zip(spans, parts, strict=True)))


def payout_for(entrants: int, fixed_percent: Sequence[int] = ()) -> Payout:
    """The payout for ``entrants`` players (docs/rules.md, 'Defaults'; the table above).

    ``fixed_percent`` (whole percents per place, adding to 100) overrides the
    table, unless it pays more places than there are entrants.

    >>> [g.parts // PERCENT for g in payout_for(9).groups]
    [50, 30, 20]
    >>> payout_for(4).places_paid, payout_for(24).places_paid, payout_for(1_000).places_paid
    (1, 4, 153)
    """
    if entrants < 1:
        raise ValueError("a payout needs at least one entrant")
    if fixed_percent and len(fixed_percent) <= entrants:
        return fixed_payout(fixed_percent)
    if entrants < _FIRST_GENERATED_BAND:
        return fixed_payout(_small_field_percent(max(entrants, 2)))
    return _generated(_paid_places(entrants))


def prize_amounts(pool: int, payout: Payout) -> tuple[int, ...]:
    """The prize of each paid place, best first: rounded down, cents left over to first place.

    The amounts add up to ``pool`` exactly and never rise from one place to the next.
    """
    if pool < 0:
        raise ValueError("the pool is non-negative cents")
    amounts: list[int] = []
    for group in payout.groups:
        amounts.extend([pool * group.parts // PARTS] * group.size)
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


@lru_cache(maxsize=64)
def prizes_for(pool: int, entrants: int, fixed_percent: tuple[int, ...] = ()) -> tuple[int, ...]:
    """``prize_amounts(pool, payout_for(entrants, fixed_percent))``, kept: a hand with a bust-out asks for them.

    A field of 10,000 pays some 1,500 places; the amounts never change once the pool is fixed.

    >>> prizes_for(10_000, 9)
    (5000, 3000, 2000)
    """
    return prize_amounts(pool, payout_for(entrants, fixed_percent))


def prize_for_place(prizes: Sequence[int], place: int) -> int:
    """The prize of ``place`` (1-based), 0 outside the money."""
    return prizes[place - 1] if 1 <= place <= len(prizes) else 0


@dataclass(frozen=True)
class BustOut:
    """A player eliminated in a hand, with the chips they started that hand with."""

    player_id: str
    starting_stack: int


@dataclass(frozen=True)
class Placing:
    """A decided place; tied players share places ``place`` to ``last_place``."""

    player_id: str
    place: int
    last_place: int
    prize: int


def place_bust_outs(busted: Sequence[BustOut], remaining_before: int, prizes: Sequence[int]) -> tuple[Placing, ...]:
    """Places and prizes of the players eliminated in one hand (docs/rules.md, rules 9, 10).

    ``busted`` lists them in seat order clockwise from the button (see
    :func:`clockwise_from_button`); ``remaining_before`` is the number of players
    left in the tournament before the hand. They take the places
    ``remaining_before`` down to ``remaining_before - len(busted) + 1``: the one
    who started the hand with more chips takes the better place. Equal starting
    stacks share: the prizes of their places are added and split equally, and
    indivisible cents go one each to the tied players in seat order.

    >>> place_bust_outs([BustOut("a", 500), BustOut("b", 500)], 3, (600, 301, 100))
    (Placing(player_id='a', place=2, last_place=3, prize=201), Placing(player_id='b', place=2, last_place=3, prize=200))
    """
    if not busted:
        return ()
    if len(busted) >= remaining_before:
        raise ValueError("someone must survive the hand: more eliminated than players remaining")
    if len({b.player_id for b in busted}) != len(busted):
        raise ValueError("a player is eliminated once")
    seat_rank = {b.player_id: i for i, b in enumerate(busted)}
    ordered = sorted(busted, key=lambda b: (-b.starting_stack, seat_rank[b.player_id]))
    placings: list[Placing] = []
    place = remaining_before - len(busted) + 1
    for _, tied_group in groupby(ordered, key=lambda b: b.starting_stack):
        tied = list(tied_group)
        last = place + len(tied) - 1
        total = sum(prize_for_place(prizes, p) for p in range(place, last + 1))
        share, odd_cents = divmod(total, len(tied))
        placings.extend(
            Placing(b.player_id, place, last, share + (1 if i < odd_cents else 0)) for i, b in enumerate(tied)
        )
        place = last + 1
    return tuple(placings)


def clockwise_from_button(seats: Mapping[str, int], button_seat: int, seat_count: int) -> list[str]:
    """Players in seat order clockwise from the button: the seat after it first, the button last.

    >>> clockwise_from_button({"a": 1, "b": 4, "c": 7}, button_seat=4, seat_count=9)
    ['c', 'a', 'b']
    """
    return sorted(seats, key=lambda player: (seats[player] - button_seat - 1) % seat_count)


def prize_entry(tournament_id: str, player_id: str, amount: int, at: datetime) -> Entry | None:
    """A prize credited from the pool the moment the place is decided (docs/rules.md, rule 10).

    Keyed ``prize:<tournament>:<player>``: a player is paid one prize per tournament.
    """
    return transfer(
        f"prize:{tournament_id}:{player_id}",
        EntryKind.PRIZE,
        tournament_id,
        pool_account(tournament_id),
        player_account(player_id),
        amount,
        at,
    )


def overlay_entry(tournament_id: str, pool: PrizePool, at: datetime) -> Entry | None:
    """The house's overlay into the pool, once the pool collected is final (docs/rules.md, Money)."""
    return transfer(
        f"overlay:{tournament_id}",
        EntryKind.OVERLAY,
        tournament_id,
        overlay_account(tournament_id),
        pool_account(tournament_id),
        pool.overlay,
        at,
    )


def _bands(limit: int) -> Iterator[tuple[int, int, Payout]]:
    """(lowest, highest entrants, payout) for every band up to the one holding ``limit``."""
    lows = [lowest for lowest, _ in _SMALL_FIELDS]
    ends = (end for end in _group_ends() if end * ENTRANTS_PER_PAID_PLACE >= _FIRST_GENERATED_BAND)
    while lows[-1] <= limit:
        lows.append(next(ends) * ENTRANTS_PER_PAID_PLACE)
    for low, next_low in pairwise(lows):
        yield low, next_low - 1, payout_for(low)


def _decimal(numerator: int, denominator: int, digits: int) -> str:
    """``numerator / denominator`` rounded down to ``digits`` decimals, in integers only."""
    scaled = numerator * 10**digits // denominator
    return f"{scaled // 10**digits}.{scaled % 10**digits:0{digits}d}"


def _pct(parts: int) -> str:
    return _decimal(parts, PERCENT, 4) if parts else "-"


def payout_summary(limit: int = MAX_DOCUMENTED_ENTRANTS) -> list[str]:
    """The table's summary rows (the module docstring's), one text line per band."""
    header = f"{'entrants':>15} {'paid':>6} " + " ".join(f"{p:>7}" for p in range(1, 10)) + "    last  x entry"
    lines = [header]
    for low, high, payout in _bands(limit):
        tops = " ".join(f"{_pct(payout.parts_for(p)):>7}" for p in range(1, 10))
        last = payout.groups[-1].parts
        multiple = _decimal(last * low, PARTS, 2)
        lines.append(f"{f'{low}-{high}':>15} {payout.places_paid:>6} {tops} {_pct(last):>7} {multiple:>7}")
    return lines


def payout_table_markdown(limit: int = MAX_DOCUMENTED_ENTRANTS) -> str:
    """The full payout table, every band and every group of places, as Markdown (for ``docs/``)."""
    out = ["| entrants | places paid | places | % of the pool each |", "|---|---|---|---|"]
    for low, high, payout in _bands(limit):
        for i, group in enumerate(payout.groups):
            span = str(group.first) if group.size == 1 else f"{group.first}-{group.last}"
            band = f"{low:,}-{high:,}" if i == 0 else ""
            paid = str(payout.places_paid) if i == 0 else ""
            out.append(f"| {band} | {paid} | {span} | {_decimal(group.parts, PERCENT, 7)} |")
    return "\n".join(out) + "\n"
