"""The table's late and absent players for a page that shows its sheet or its round."""

from django import template

from scoring.late_players import round_out_players, table_late_players
from scoring.models import LatePlayer
from tournaments.models import Round, Table

register = template.Library()


@register.simple_tag
def late_players_at(table: Table) -> list[LatePlayer]:
    return table_late_players(table)


@register.simple_tag
def out_of_round(round_: Round) -> list[LatePlayer]:
    return round_out_players(round_)
