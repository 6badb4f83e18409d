"""Move-ordering and reduction tables of the Tak search (`bots.tak.search`).

* `lmr_table()`: late move reductions by remaining depth and move number, about
  ln(depth) * ln(i) / 2.25 plies, at least 1, leaving at least one ply (the search
  never reduces its first three moves nor the killers);
* `prior_scores(size)`: the static ordering score of every move code of a size, which
  seeds the search's history table (flat placements near the centre first, capstones,
  then walls; slides score 0 and so come after placements).

Both are built on first use and cached (not at import: engines start faster); the
lists are shared and never changed.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

from bots.tak.eval import eval_tables
from rules.tak.tables import KIND_SHIFT

#: the number of move codes (every code of every size is below it)
CODE_SPACE: Final = 1 << 19
#: the depths and move numbers the reduction table covers (beyond them: its last entry)
LMR_DEPTHS: Final = 64
LMR_MOVES: Final = 256


@cache
def lmr_table() -> list[list[int]]:
    """LMR[depth][move number] (see the module docstring)."""
    logs = [math.log(max(i, 1)) / 1.5 for i in range(max(LMR_DEPTHS, LMR_MOVES))]
    return [
        [max(1, min(d - 2, int(0.5 + logs[d] * logs[i]))) for i in range(LMR_MOVES)]
        for d in range(LMR_DEPTHS)
    ]


@cache
def prior_scores(size: int) -> list[int]:
    """Static ordering scores of every move code of a size (indexed by code)."""
    prior = [0] * CODE_SPACE
    et = eval_tables(size)
    for sq in range(size * size):
        prior[sq] = 300 + 10 * et.flat_pst[sq]
        prior[sq | 1 << KIND_SHIFT] = 60 + et.flat_pst[sq]
        prior[sq | 2 << KIND_SHIFT] = 150 + 4 * et.cap_pst[sq]
    return prior
