"""The one lock order (round, then table) every write that touches a table takes, and the refusal
when the table is gone."""

from django.utils.translation import gettext as _

from tournaments.models import Round, Table
from tournaments.services.refusal import ServiceError


class TableGoneError(ServiceError):
    """The table is no more: its round was seated again (its link was revoked with it)."""


def table_gone_message() -> str:
    return _("This round was re-seated: use the new link of your table.")


def lock_round_and_table(table: Table) -> tuple[Round, Table]:
    """The round's row, then the table's: the one order of every write that touches both
    (seating, swaps, publishing, the clock and closing lock the round alone), so that two
    writes never wait for each other in a circle. A table deleted meanwhile (its round was
    seated again) is a `TableGoneError`. A deal of a round in play takes the round's row
    shared instead (scoring.sheet.plain_sql.lock_table_in_round_in_play), in the same order."""
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=table.round_id)
    )
    # The table's row alone: Table's ordering joins the round and the tournament, and a bare
    # FOR UPDATE would lock their rows too (every write of a tournament queued behind one row).
    locked = Table.objects.select_for_update(of=("self",)).filter(pk=table.pk).first()
    if locked is None:
        raise TableGoneError(table_gone_message())
    locked.round = round_
    return round_, locked
