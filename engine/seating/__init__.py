"""Seating: who sits at which table in each round.

Four modes:

- ``random``: a seeded draw, reproducible from its seed, that still avoids repeated table-mates and
  (when asked) club mates at one table whenever it can;
- ``swiss``: by standings, the strongest together: the ranking is cut into consecutive tables, then
  repaired with swaps between nearby tables until no avoidable repeat or club clash remains, at the
  least cost in rank spread;
- ``mix``: as few repeated table-mates as possible; ``rounds`` > 1 plans a whole schedule at once
  (a search over all its rounds; up to 90 players also whole rounds seated anew without a repeat).
  For 9, 12, 15, 18 and 21 players, and between 31 and 44 with tables of 4, a schedule without
  history starts from a stored one (`engine.seating.designs`), which no search finds as reliably;
  so do fields of 16, 20, 24 and 28 at tables of 4 (16: the affine plane of order 4);
- ``ranked``: the federation's rule, "the best four sit at table 1, the next four at table 2, and
  so on": the standings cut into consecutive tables in table-number order, nothing repaired
  (repeats and club mates are only flagged).

``table_size`` 3 (the default) seats N mod 3 tables of 4 among tables of 3; 4 seats tables of 4
with the fewest tables of 3, numbered last (`table_sizes`). The tables of the other size, the odd
tables, rotate fairly in every mode but ranked: nobody sits at an odd table again while a player
who has sat at fewer is seated at a table of the usual size (turns counted in `history`), unless
that is the price of avoiding a repeat or a club clash (on a small field the players due at the
odd tables may have just met; such a turn is warned about). Players with a fixed table always
sit there.

One cost is minimised, its terms ranked: a club clash (two players of one club at a table, when
they are to be kept apart) costs more than any number of repeats; a pair meeting for the (m+1)-th
time costs m², one more when they also meet in the round before or after, and any repeat costs more
than any unfair turn at an odd table; in ``swiss`` a rank of spread costs less than any of these.
Up to 24 players a round is searched on that whole cost (`search.improve`). Whatever could not be
avoided is flagged on its table and listed in the plan's warnings.

The modules, each one idea; each imports only modules above it in this list:

- `sizes`: how many tables of 3 and of 4 (`table_sizes`), which of them are the odd ones;
- `checks`: the input (`SeatingPlayer`, history, fixed tables, options) and its refusals;
- `flags`: why a table is as it is (`TableFlag`, `explain_table`, `meeting_counts`);
- `schedule`: the search core, the working state with its costs and swaps (`Schedule`);
- `search`: the tabu search on it (`repair`, `polish_spread`);
- `new_rounds`: what a plan's rounds share, turns at the odd tables, the random draw, the ranked
  cut;
- `swiss`: the standings cut into tables;
- `planning`: one round built and repaired;
- `designs` and `mix`: stored schedules, and whole schedules planned at once;
- `seat`: `seat_players`, the plan assembled with its flags and warnings;
- `seat_contract`: the JSON of `python -m engine seat` (`seat_json`).
"""

from engine.seating.checks import MAX_PLAN_ROUNDS, MODES, SeatingPlayer
from engine.seating.flags import (
    FIXED_TABLE,
    FOUR_TABLE,
    REPEAT_MEETING,
    SAME_CLUB,
    THREE_TABLE,
    TableFlag,
    explain_table,
    flag_detail,
    meeting_counts,
    ordinal,
)
from engine.seating.seat import SeatedTable, SeatingPlan, seat_players
from engine.seating.seat_contract import seat_json
from engine.seating.sizes import table_sizes

__all__ = [
    "FIXED_TABLE",
    "FOUR_TABLE",
    "MAX_PLAN_ROUNDS",
    "MODES",
    "REPEAT_MEETING",
    "SAME_CLUB",
    "THREE_TABLE",
    "SeatedTable",
    "SeatingPlan",
    "SeatingPlayer",
    "TableFlag",
    "explain_table",
    "flag_detail",
    "meeting_counts",
    "ordinal",
    "seat_json",
    "seat_players",
    "table_sizes",
]
