"""Who holds which role in a tournament, and what each account organises or referees."""

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from core.engine_text import display_name_key
from tournaments.models import ROLE_RELATIONS, Role, Round, RoundStatus, Table, Tournament
from tournaments.selectors.rounds import tournament_list


def role_holders(*, tournament: Tournament, role: str) -> list[User]:
    """The accounts holding one role in the tournament, by username in the reader's order."""
    holders = getattr(tournament, ROLE_RELATIONS[role]).all()
    return sorted(holders, key=lambda user: display_name_key(user.username))


def tournament_people(*, tournament: Tournament) -> dict[str, list[User]]:
    """The accounts holding each role in the tournament, by role code, in three queries."""
    return {role: role_holders(tournament=tournament, role=role) for role in Role.values}


def organised_tournaments(*, user: User) -> QuerySet[Tournament]:
    """The tournaments the account is named an organiser of (staff organise them all: the
    caller asks tournaments.permissions and lists tournament_list() for them)."""
    return tournament_list().filter(organisers=user)


def chief_refereed_tournaments(*, user: User) -> QuerySet[Tournament]:
    """The tournaments the account is a chief referee of but does not organise (an organiser
    reaches them from his tournament list)."""
    return (
        Tournament.objects.filter(chief_referees=user)
        .exclude(organisers=user)
        .order_by("-starts_on", "name")
    )


def refereed_tables(*, user: User) -> list[Table]:
    """The tables of rounds in play the account may write as a referee: those assigned to him,
    and every table of the tournaments whose chief referee he is, in one query."""
    return list(
        Table.objects.filter(round__status__in=(RoundStatus.PUBLISHED, RoundStatus.IN_PLAY))
        .filter(Q(referees=user) | Q(round__tournament__chief_referees=user))
        .select_related("round__tournament")
        .distinct()
        .order_by(
            "-round__tournament__starts_on", "round__tournament__name", "round__number", "number"
        )
    )


def round_referee_assignments(*, round_: Round) -> list[tuple[Table, list[int]]]:
    """Each table of the round with the ids of the referee accounts assigned to it."""
    tables = round_.tables.prefetch_related("referees").order_by("number")
    return [(table, sorted(user.pk for user in table.referees.all())) for table in tables]
