"""Factories for Django tests: a valid object with sensible defaults, overridable by keyword."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth.models import User

from tournaments.models import Club, Player, Registration, Tournament

_sequence = itertools.count(1)

LATVIAN_NAMES = [
    "Jānis Bērziņš",
    "Anna Ozoliņa",
    "Pēteris Kalniņš",
    "Līga Liepiņa",
    "Ģirts Šteins",
    "Ērika Žagare",
    "Kārlis Čakste",
    "Ieva Ķikute",
    "Ņikita Ļebedevs",
    "Dace Krūmiņa",
    "Edgars Vītols",
    "Māra Zariņa",
]


def make_club(**fields) -> Club:
    fields.setdefault("name", f"Klubs {next(_sequence)}")
    return Club.objects.create(**fields)


def make_player(**fields) -> Player:
    number = next(_sequence)
    fields.setdefault("full_name", f"{LATVIAN_NAMES[number % len(LATVIAN_NAMES)]} {number}")
    return Player.objects.create(**fields)


def make_tournament(**fields) -> Tournament:
    number = next(_sequence)
    fields.setdefault("name", f"Rīgas kauss {number}")
    fields.setdefault("slug", f"rigas-kauss-{number}")
    fields.setdefault("starts_on", datetime.date(2026, 12, 5))
    return Tournament.objects.create(**fields)


def make_registrations(tournament: Tournament, count: int, *, clubs: int = 0) -> list[Registration]:
    """`count` registered players, spread over `clubs` clubs (none when 0)."""
    club_list = [make_club() for _ in range(clubs)]
    return [
        Registration.objects.create(
            tournament=tournament,
            player=make_player(club=club_list[index % clubs] if clubs else None),
        )
        for index in range(count)
    ]


def make_organiser(**fields) -> User:
    fields.setdefault("username", f"organiser{next(_sequence)}")
    return User.objects.create_user(password="zole-pass-123", is_staff=True, **fields)


def make_user(**fields) -> User:
    fields.setdefault("username", f"player{next(_sequence)}")
    return User.objects.create_user(password="zole-pass-123", **fields)


def make_season(year: int, **fields: object):
    """A ranking season of the calendar `year`, with the default points table."""
    from engine.ranking import DEFAULT_POINTS_TABLE
    from ranking.models import Season

    fields.setdefault("name", str(year))
    fields.setdefault("starts_on", datetime.date(year, 1, 1))
    fields.setdefault("ends_on", datetime.date(year, 12, 31))
    fields.setdefault("points_table", DEFAULT_POINTS_TABLE.as_mapping())
    return Season.objects.create(**fields)


def make_published_round(tournament: Tournament | None = None, *, players: int = 7, seed: int = 1):
    """A published round 1 whose seating is generated: 7 players sit at a table of 4 and of 3."""
    from scoring.services import round_generate_seating
    from tournaments import services

    tournament = tournament or make_tournament()
    if not tournament.registrations.exists():
        make_registrations(tournament, players)
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=seed, by=None)
    return services.round_publish(round_=round_, by=None)


def seat_keys(table) -> list[str]:
    """The table's players as the engine knows them (registration ids, in seat order)."""
    return [
        str(registration_id)
        for registration_id in table.seats.order_by("position").values_list(
            "registration_id", flat=True
        )
    ]


def deals_on_sheet(table) -> int:
    """The deals on the table's sheet as a confirmer sees them (a confirmation carries it)."""
    from scoring.sheet.lines import current_results, deals_played
    from scoring.sheet.plain_sql import table_results

    return deals_played(current_results(table_results(table.pk)))


def play_round_with(round_, **options) -> None:
    """The round is played with these options, as if the tournament had them when the round was
    published (a published round keeps the rule set it was published with)."""
    Tournament.objects.filter(pk=round_.tournament_id).update(**options)
    round_.tournament.refresh_from_db()
    round_.rule_set = {**round_.rule_set, **options}
    round_.save(update_fields=["rule_set"])


def subscribe_phone(push_service, registration: Registration, *, language: str = "lv") -> dict:
    """The player's phone subscribes on his page: a subscription of the test's push service,
    kept for him. Its JSON, as the browser gives it."""
    from notices.services import push_subscribe

    browser = push_service.subscribe()
    push_subscribe(
        registration=registration,
        endpoint=browser["endpoint"],
        p256dh=browser["keys"]["p256dh"],
        auth=browser["keys"]["auth"],
        language=language,
    )
    return browser
