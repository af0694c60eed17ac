"""Ranking writes: ratings after each confirmed (or unlocked) table, placings of a finished
tournament, the final's qualifiers registered, the whole recomputation, and the federation's
season rules (`season_create`, `season_update`) and final invitations (`invitation_create`,
`invitation_withdraw`), each in a transaction with an audit record.

Ratings depend on the order of the tables, and the engine rates them in one stable order: the
tournament's date, its slug, the round, the table number (`table_key`). A table confirmed in that
order (the usual case: the latest table of today's tournament) is rated at once from the players'
current ratings. A table that comes *before* tables rated already (confirmed out of order, or an
old tournament entered late), and an unlocked table, re-rate the tail: from that point on, every
table whose ratings can have changed (one with a player of the changed table, or with a player
who met one of them at such a table since) is rated again, from the ratings its players had just
before it (each player's earliest "before" in the tail); the other tables keep theirs, since
nothing they were rated from changed. So the stored ratings are always exactly what
`ranking_recompute` (the whole replay) would give, at the cost of the affected tail only.
Rating writes wait for each other, whatever their tournament: each takes one lock first
(`rating_store.lock_ratings`), since a table re-rates later tournaments' tables of its players.

A rating update with more than settings.RATING_INLINE_TABLES confirmed tables after it in the
rating order (a table of the first weekend of a long season corrected) is not done in the
confirming request: a `RatingUpdate` records where it starts, and a job
(`rating_updates_run`, started after the commit, in a thread of the same process) rates every
table from there on again, in one transaction, telling its progress through the cache
(`selectors.rating_update_progress`, shown on the rating list). Until it commits, the stored
ratings are those of before the change, whole: never a ranking half re-rated. While a job
waits, every other rating update waits behind it (a table rated at once would start from
ratings the job is about to change).

A tournament counts for the season ranking once it is finished: all its planned rounds closed.
Its placings are written when its last round is closed (`ranking_round_closed`), or when it is
imported finished from an archive (`ranking_tournament_imported`); a tournament
whose rounds or settings are changed afterwards is brought up to date by `recompute_ranking`.

The parts: `rating_store` (the order of tables, outcomes, storing changes), `ratings` (a
table rated or taken back), `rating_job` (the long re-rating), `placings` (finished tournaments,
qualifiers, the whole recomputation), `seasons` (season rules, invitations).
"""

from ranking.services.placings import (
    QUALIFIERS_REGISTERED,
    qualifiers_register,
    ranking_recompute,
    ranking_round_closed,
    ranking_tournament_imported,
)
from ranking.services.rating_job import (
    rating_updates_run,
)
from ranking.services.ratings import (
    rating_apply_table,
    rating_remove_table,
)
from ranking.services.seasons import (
    invitation_create,
    invitation_withdraw,
    invitations_covering,
    season_create,
    season_update,
)

__all__ = [
    "QUALIFIERS_REGISTERED",
    "invitation_create",
    "invitation_withdraw",
    "invitations_covering",
    "qualifiers_register",
    "ranking_recompute",
    "ranking_round_closed",
    "ranking_tournament_imported",
    "rating_apply_table",
    "rating_remove_table",
    "rating_updates_run",
    "season_create",
    "season_update",
]
