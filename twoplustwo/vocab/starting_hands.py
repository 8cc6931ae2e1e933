"""The 169 starting-hand classes from strongest to weakest, by exact equity against a random hand.

:data:`CLASS_ORDER` lists the classes of :data:`~twoplustwo.vocab.combos.HAND_CLASSES`
by falling equity heads-up against a uniformly random opponent hand, all
five board cards to come; :data:`POINTS` holds each one's exact ``2 * wins +
ties`` per combo over :data:`GAMES_VS_RANDOM` games, so its equity is
``POINTS[i] / (2 * GAMES_VS_RANDOM)``. Equal points would keep the
:data:`~twoplustwo.vocab.combos.HAND_CLASSES` order (no two classes tie).
The percent ranges of :func:`twoplustwo.vocab.ranges.parse_range` walk this order:

>>> CLASS_ORDER[:8], CLASS_ORDER[-1]
(('AA', 'KK', 'QQ', 'JJ', 'TT', '99', '88', 'AKs'), '32o')
>>> round(POINTS[0] / (2 * GAMES_VS_RANDOM), 4)  # AA
0.852
>>> [HAND_CLASSES[k] for k in top_classes(Fraction(2))]  # 24 < 26.52 <= 30 combos
['AA', 'KK', 'QQ', 'JJ', 'TT']

The table is data, not computed on import (the vocabulary sits below the
odds layer). It was generated once from the project's own exact enumeration,
``twoplustwo.odds.preflop.preflop_vs_random(quiet=True)``, sorting the classes
by ``(-(2 * wins + ties), HAND_CLASSES.index(name))``; tests/vocab/test_starting_hands.py
recomputes it that way and checks it equals this table exactly.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from itertools import accumulate

from twoplustwo.vocab.combos import CLASS_SIZE, HAND_CLASSES, N_COMBOS

__all__ = ["CLASS_ORDER", "GAMES_VS_RANDOM", "POINTS", "top_classes"]

#: The games each combo of a class plays against a random hand: every
#: opponent combo sharing no card with it, times every board of five of the
#: other 48 cards (``comb(50, 2) * comb(48, 5)``).
GAMES_VS_RANDOM = 2_097_572_400

# (class, 2 * wins + ties per combo), strongest first.
_TABLE: tuple[tuple[str, int], ...] = (
    ("AA", 3_574_419_148), ("KK", 3_456_618_076), ("QQ", 3_352_976_364), ("JJ", 3_249_956_564), ("TT", 3_146_852_786),
    ("99", 3_022_906_058), ("88", 2_901_489_486), ("AKs", 2_812_619_406), ("77", 2_778_697_066),
    ("AQs", 2_777_557_648), ("AJs", 2_743_317_574), ("AKo", 2_740_271_595), ("ATs", 2_710_163_670),
    ("AQo", 2_703_008_959), ("AJo", 2_666_570_709), ("KQs", 2_659_738_722), ("66", 2_654_886_824),
    ("A9s", 2_633_762_831), ("ATo", 2_631_264_233), ("KJs", 2_624_790_516), ("A8s", 2_598_632_551),
    ("KTs", 2_592_119_485), ("KQo", 2_578_159_800), ("A7s", 2_558_365_366), ("A9o", 2_549_507_227),
    ("KJo", 2_540_944_046), ("55", 2_530_717_766), ("QJs", 2_527_960_911), ("K9s", 2_516_603_411),
    ("A5s", 2_513_853_498), ("A6s", 2_513_136_230), ("A8o", 2_511_742_479), ("KTo", 2_506_133_992),
    ("QTs", 2_494_750_222), ("A4s", 2_476_546_510), ("A7o", 2_468_473_350), ("K8s", 2_446_287_516),
    ("A3s", 2_442_426_752), ("QJo", 2_438_834_411), ("K9o", 2_425_293_951), ("A5o", 2_420_453_161),
    ("A6o", 2_419_862_398), ("Q9s", 2_419_101_794), ("K7s", 2_413_791_403), ("JTs", 2_413_376_906),
    ("A2s", 2_407_127_850), ("QTo", 2_403_431_287), ("44", 2_392_189_918), ("A4o", 2_379_892_121),
    ("K6s", 2_376_160_871), ("K8o", 2_350_127_356), ("Q8s", 2_350_025_012), ("A3o", 2_342_761_931),
    ("K5s", 2_340_593_683), ("J9s", 2_335_121_239), ("Q9o", 2_322_450_407), ("JTo", 2_317_721_143),
    ("K7o", 2_315_189_251), ("A2o", 2_304_332_573), ("K4s", 2_302_489_977), ("Q7s", 2_278_058_571),
    ("K6o", 2_274_745_067), ("K3s", 2_267_684_534), ("T9s", 2_266_533_059), ("J8s", 2_266_034_488),
    ("33", 2_252_502_302), ("Q6s", 2_249_124_793), ("Q8o", 2_248_588_890), ("K5o", 2_236_598_359),
    ("J9o", 2_233_964_817), ("K2s", 2_232_309_054), ("Q5s", 2_213_753_197), ("T8s", 2_195_502_632),
    ("K4o", 2_195_213_225), ("J7s", 2_195_100_337), ("Q4s", 2_175_405_007), ("Q7o", 2_171_644_643),
    ("T9o", 2_161_828_275), ("J8o", 2_160_086_896), ("K3o", 2_157_382_145), ("Q6o", 2_140_532_877),
    ("Q3s", 2_140_331_266), ("98s", 2_131_165_248), ("T7s", 2_124_380_950), ("J6s", 2_122_991_082),
    ("K2o", 2_118_914_099), ("22", 2_111_584_984), ("Q2s", 2_104_663_674), ("Q5o", 2_102_610_047),
    ("J5s", 2_097_020_718), ("T8o", 2_085_879_427), ("J7o", 2_084_229_054), ("Q4o", 2_060_977_485),
    ("97s", 2_060_559_942), ("J4s", 2_058_576_574), ("T6s", 2_053_132_211), ("J3s", 2_023_386_467),
    ("Q3o", 2_022_875_163), ("98o", 2_017_740_169), ("87s", 2_010_998_885), ("T7o", 2_009_815_656),
    ("J6o", 2_007_136_533), ("96s", 1_989_685_474), ("J2s", 1_987_582_097), ("Q2o", 1_984_112_061),
    ("T5s", 1_980_790_433), ("J5o", 1_979_306_579), ("T4s", 1_952_021_583), ("97o", 1_942_260_018),
    ("86s", 1_939_972_106), ("J4o", 1_937_585_709), ("T6o", 1_933_626_279), ("95s", 1_918_098_843),
    ("T3s", 1_916_867_042), ("76s", 1_903_411_309), ("J3o", 1_899_374_667), ("87o", 1_889_946_808),
    ("T2s", 1_881_081_228), ("85s", 1_868_726_945), ("96o", 1_866_476_357), ("J2o", 1_860_482_433),
    ("T5o", 1_856_391_409), ("94s", 1_840_073_188), ("75s", 1_832_252_004), ("T4o", 1_825_060_325),
    ("93s", 1_814_998_261), ("86o", 1_814_018_446), ("65s", 1_809_508_009), ("84s", 1_791_395_097),
    ("95o", 1_790_032_326), ("T3o", 1_786_903_085), ("92s", 1_779_377_877), ("76o", 1_775_500_515),
    ("74s", 1_755_639_231), ("T2o", 1_748_047_643), ("54s", 1_739_031_009), ("85o", 1_737_944_702),
    ("64s", 1_733_992_584), ("83s", 1_714_702_682), ("94o", 1_706_209_587), ("75o", 1_699_535_755),
    ("82s", 1_689_453_378), ("73s", 1_679_565_482), ("93o", 1_678_876_575), ("65o", 1_675_721_321),
    ("53s", 1_665_177_248), ("63s", 1_658_490_084), ("84o", 1_654_850_021), ("92o", 1_640_215_041),
    ("43s", 1_621_085_688), ("74o", 1_617_221_098), ("72s", 1_600_694_981), ("54o", 1_600_669_542),
    ("64o", 1_594_595_021), ("52s", 1_587_834_115), ("62s", 1_580_267_589), ("83o", 1_572_500_215),
    ("42s", 1_545_030_496), ("82o", 1_544_974_255), ("73o", 1_535_517_681), ("53o", 1_521_359_660),
    ("63o", 1_513_508_859), ("32s", 1_509_598_969), ("43o", 1_474_421_119), ("72o", 1_450_834_082),
    ("52o", 1_438_290_523), ("62o", 1_429_501_394), ("42o", 1_392_777_591), ("32o", 1_355_167_195),
)

#: The 169 class names, strongest against a random hand first.
CLASS_ORDER: tuple[str, ...] = tuple(name for name, _ in _TABLE)
#: ``2 * wins + ties`` of each class of :data:`CLASS_ORDER` per combo, out of ``2 * GAMES_VS_RANDOM``.
POINTS: tuple[int, ...] = tuple(points for _, points in _TABLE)

_INDEX = tuple(HAND_CLASSES.index(name) for name in CLASS_ORDER)
# The combos of the classes before each one in CLASS_ORDER: 0, 6, 12, ..
_BEFORE = (0, *accumulate(int(CLASS_SIZE[k]) for k in _INDEX))[:-1]


def top_classes(percent: Fraction) -> tuple[int, ...]:
    """The classes (indices into ``HAND_CLASSES``) of the top ``percent`` percent of the combos, strongest first.

    Walking :data:`CLASS_ORDER`, a class is taken when the combos of the
    classes before it number less than ``percent`` percent of the 1,326: the
    smallest run of whole classes from the top holding at least that share.
    0 gives no class and 100 every class.

    >>> [HAND_CLASSES[k] for k in top_classes(Fraction(1))]  # 6 + 6 < 13.26 <= 18 combos
    ['AA', 'KK', 'QQ']
    >>> len(top_classes(Fraction(0))), len(top_classes(Fraction(100)))
    (0, 169)
    """
    if not 0 <= percent <= 100:
        raise ValueError(f"a percent must be at least 0 and at most 100, got {percent}")
    return _INDEX[: bisect_left(_BEFORE, percent * N_COMBOS / 100)]
