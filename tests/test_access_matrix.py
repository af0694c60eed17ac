"""The access matrix: every view of organise.urls, entry.urls, documents.urls,
ranking.urls and the JSON API's api.urls, requested as every role, with GET and with a POST
that would write if it were let through.

The views are found in the URL resolver, so a new view fails `test_every_view_is_in_the_matrix`
until it is given its roles here. A refused request answers 403 (a visitor: a redirect to sign
in) and changes nothing in the database; an allowed one is not refused, and its POST does write
(which shows the refused POST would have written too). Each allowed request runs in a savepoint
that is rolled back, so one tournament serves every role of a view.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone

from engine import Play
from engine.rules import Game
from hall.services.display_links import display_link_issue
from hall.services.referee_calls import referee_call
from scoring import services as scoring_services
from scoring.services import Writer, round_generate_seating
from signups.models import SignUp
from signups.services import signup_create
from tests.factories import (
    deals_on_sheet,
    make_player,
    make_registrations,
    make_tournament,
    seat_keys,
)
from tournaments import services
from tournaments.models import Player, Round, Table, TableToken, Tournament

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "plain_user",
    "player_only",
    "referee_of_another_table",
    "referee_of_this_table",
    "chief_referee_of_another_tournament",
    "chief_referee",
    "organiser_of_another_tournament",
    "organiser",
    "staff",
)
STAFF = frozenset({"staff"})
ORGANISERS = frozenset({"organiser", "staff"})
SHEET_PRINTERS = ORGANISERS | {"chief_referee"}  # also the round clock's keepers
# Chief referees are appointed and removed by staff and the chief referees, never by the
# organisers (separation of duties: the chief referee alone unlocks a confirmed table).
CHIEF_APPOINTERS = STAFF | {"chief_referee"}
PEOPLE_PAGE = ORGANISERS | CHIEF_APPOINTERS  # organisers appoint the table referees
TABLE_WRITERS = SHEET_PRINTERS | {"referee_of_this_table"}
ANY_ROLE = frozenset(ROLES) - {"anonymous", "plain_user", "player_only"}
EVERYONE = frozenset(ROLES)  # the table's private link: whoever holds it, signed in or not
# Personal API tokens: federation staff and whoever organises some tournament.
TOKEN_HOLDERS = ORGANISERS | {"organiser_of_another_tournament"}

# The namespaces whose every view is in the matrix.
NAMESPACES = ("organise", "entry", "documents", "ranking", "api", "api_tokens", "public")


@dataclass
class World:
    """Tournament "kauss": round 1 in play (two tables of three, three deals a round), round 2
    a seated draft; tournament "cits" beside it; one account per role."""

    tournament: Tournament
    other: Tournament
    round_1: Round
    round_2: Round
    table: Table  # "this table": table 1 of round 1
    other_table: Table
    unregistered: Player
    users: dict[str, User | None] = field(default_factory=dict)
    chief: User | None = None  # a chief referee an organiser may remove
    spare_referee: User | None = None  # in the tournament's referees, on no table
    newcomer: User | None = None  # an account with no role, to be given one

    @property
    def token(self) -> str:
        return TableToken.objects.get(table=self.table, revoked_at__isnull=True).token


def account(username: str, **fields: object) -> User:
    return User.objects.create(username=username, **fields)  # no password: force_login only


@pytest.fixture
def world() -> World:
    return make_world()


def make_world() -> World:
    """The matrix's tournaments and accounts (the browser's accessibility test builds them too)."""
    tournament = make_tournament(slug="kauss", deals_per_round=3)
    entries = make_registrations(tournament, 6)
    round_1 = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_1, mode="random", seed=1, by=None)
    services.round_publish(round_=round_1, by=None)
    round_2 = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_2, mode="random", seed=2, by=None)
    other = make_tournament(slug="cits")
    table, other_table = round_1.tables.order_by("number")
    world = World(
        tournament=tournament,
        other=other,
        round_1=round_1,
        round_2=round_2,
        table=table,
        other_table=other_table,
        unregistered=make_player(full_name="Nereģistrēta Spēlētāja"),
    )
    seated = entries[0].player.full_name.split(" ", 1)
    users = world.users
    users["anonymous"] = None
    users["plain_user"] = account("plain")
    # Accounts are not linked to players: a player with an account is just an account.
    users["player_only"] = account("player", first_name=seated[0], last_name=seated[-1])
    users["referee_of_another_table"] = account("referee-2")
    users["referee_of_this_table"] = account("referee-1")
    for name, assigned in (
        ("referee_of_this_table", table),
        ("referee_of_another_table", other_table),
    ):
        tournament.referees.add(users[name])
        assigned.referees.add(users[name])
    users["chief_referee_of_another_tournament"] = account("chief-elsewhere")
    other.chief_referees.add(users["chief_referee_of_another_tournament"])
    users["chief_referee"] = account("chief")
    tournament.chief_referees.add(users["chief_referee"])
    users["organiser_of_another_tournament"] = account("organiser-elsewhere")
    other.organisers.add(users["organiser_of_another_tournament"])
    users["organiser"] = account("organiser")
    tournament.organisers.add(users["organiser"])
    users["staff"] = account("staff", is_staff=True)
    world.chief = account("galvenais")
    tournament.chief_referees.add(world.chief)
    world.spare_referee = account("spare-referee")
    tournament.referees.add(world.spare_referee)
    world.newcomer = account("newcomer")
    return world


# --- What each view is, who may use it, and a POST that writes --------------------------------


def tournament_form(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Jauns turnīrs",
        "slug": "jauns-turnirs",
        "starts_on": "2026-12-12",
        "level": "club",
        "rounds_planned": 5,
        "deals_per_round": 12,
        "all_pass": "pule",
        "personal_pule_payment": "N-1",
        "place_points_three": "6,4,2",
        "place_points_four": "6,4,2,0",
        "standings_order": "place_points,game_points,last_round_game_points",
        "first_round_seating": "random",
        "later_rounds_seating": "swiss",
        "avoid_same_club": "on",
    }
    data.update(changes)
    return data


def pass_deal(_world: World) -> dict[str, object]:
    return {
        "action": "deal",
        "deal-position": 1,
        "deal-client_key": "matrix-1",
        "deal-game": "pass",
    }


def swap_two(world: World) -> dict[str, object]:
    first, second = (
        table.seats.first().registration_id for table in world.round_2.tables.all()[:2]
    )
    return {"first": first, "second": second}


def confirm_round_1(world: World) -> None:
    """Every table of round 1 played and confirmed, so the round can be closed."""
    for table in world.round_1.tables.all():
        play_and_confirm(table)


def play_and_confirm(table: Table) -> None:
    """The table's three deals played (a lielais each) and its sheet confirmed."""
    writer = Writer(ip_address="10.0.0.1")
    declarer = seat_keys(table)[0]  # at a table of three nobody sits out
    for position in (1, 2, 3):
        scoring_services.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, declarer, tricks=5, points=75),
            position=position,
            client_key=f"close-{table.pk}-{position}",
            writer=writer,
        )
    scoring_services.table_confirm(
        table=table,
        writer=writer,
        confirmer=table.seats.last().registration,
        deals_seen=deals_on_sheet(table),
    )


def invite_to_the_final(world: World) -> None:
    """The season's qualification list of "kauss" holds one player not registered yet."""
    from ranking.models import Invitation
    from ranking.selectors import default_season, season_list

    season = default_season(season_list(), world.tournament.starts_on)
    Invitation.objects.create(season=season, player=world.unregistered, tournament=world.tournament)


def a_season(_world: World) -> list[object]:
    from ranking.models import Season

    return [Season.objects.order_by("pk").first().pk]


def season_form(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Jauna sezona",
        "starts_on": "2030-01-01",
        "ends_on": "2030-12-31",
        "best_k": 4,
        "qualifiers": 12,
        "points_national": "100, 85, 75, 68",
        "points_district": "50, 42, 36",
        "points_club": "20, 16, 13",
    }
    data.update(changes)
    return data


def season_edit_form(world: World) -> dict[str, object]:
    from ranking.models import Season

    season = Season.objects.get(pk=a_season(world)[0])
    return season_form(
        name=season.name,
        starts_on=season.starts_on.isoformat(),
        ends_on=season.ends_on.isoformat(),
    )


def time_round_1(world: World) -> None:
    """The tournament times its rounds: round 1's clock can be started."""
    Tournament.objects.filter(pk=world.tournament.pk).update(round_time_limit=50)


def open_signup(world: World) -> None:
    """Registration online open (round 1 is under way: late sign-ups are allowed), with one
    player registered."""
    world.tournament.signup_until = timezone.now() + datetime.timedelta(days=1)
    world.tournament.signup_late_until_round = world.tournament.rounds_planned
    world.tournament.save(update_fields=["signup_until", "signup_late_until_round"])
    signup_create(tournament=world.tournament, full_name="Tiešsaistes Spēlētājs")


def signup_form(_world: World) -> dict[str, object]:
    return {"full_name": "Jauna Spēlētāja", "club": "Ogre", "contact": "+371 20000000"}


def refuse_signup(world: World) -> dict[str, object]:
    return {"signup": SignUp.objects.get(tournament=world.tournament).pk, "action": "refuse"}


def with_fee_categories(world: World) -> None:
    """The tournament has a standard fee and a reduced one."""
    services.fee_categories_save(
        tournament=world.tournament,
        rows=[
            services.CategoryRow(None, "Standarta", Decimal(15)),
            services.CategoryRow(None, "Dāmām", Decimal(10)),
        ],
        by=None,
    )


def reduced_fee_for_two(world: World) -> dict[str, object]:
    return {
        "registrations": list(world.tournament.registrations.values_list("pk", flat=True)[:2]),
        "category": world.tournament.fee_categories.get(name="Dāmām").pk,
    }


def unseat_round_2_with_fees(world: World) -> None:
    unseat_round_2(world)
    with_fee_categories(world)


def unseat_round_2(world: World) -> None:
    """Round 2 prepared but not seated: its check-in is open."""
    world.round_2.tables.all().delete()


def call_the_referee(world: World) -> None:
    """Table 1 of round 1 has called the chief referee."""
    referee_call(table=world.table)


def open_call(world: World) -> list[object]:
    from hall.models import RefereeCall

    return [world.tournament.slug, RefereeCall.objects.get(table=world.table).pk]


def drop_round_2(world: World) -> None:
    """The draft round 2 would stop a new round from being prepared."""
    world.round_2.delete()


@dataclass(frozen=True)
class ViewSpec:
    allowed: frozenset[str]
    args: Callable[[World], list[object]]
    post: Callable[[World], dict[str, object]] | None = None  # None: a page that only reads
    has_page: bool = True  # answers GET (a POST-only view answers 405)
    prepare: Callable[[World], None] | None = None
    # The POST of an allowed role that may write something else than `post` (by role).
    post_as: dict[str, Callable[[World], dict[str, object]]] = field(default_factory=dict)

    def body(self, world: World, role: str) -> dict[str, object]:
        post = self.post_as.get(role, self.post)
        return post(world) if post is not None else {}


def own_link(world: World) -> list[object]:
    """A player's own page: the tournament and his secret."""
    first = world.tournament.registrations.order_by("pk").first()
    return [world.tournament.slug, first.check_in_token]


def fee_category_form() -> dict[str, object]:
    """The fees page with one new category."""
    return {
        "fees-TOTAL_FORMS": "1",
        "fees-INITIAL_FORMS": "0",
        "fees-0-name": "Standarta",
        "fees-0-amount": "15",
    }


def make_display_link(world: World) -> None:
    display_link_issue(tournament=world.tournament, by=None)


def display_link(world: World) -> list[object]:
    return [world.tournament.slug, world.tournament.display_links.get(revoked_at=None).token]


def slug(world: World) -> list[object]:
    return [world.tournament.slug]


def round_1(world: World) -> list[object]:
    return [world.tournament.slug, 1]


def round_2(world: World) -> list[object]:
    return [world.tournament.slug, 2]


def this_table(world: World) -> list[object]:
    return [world.table.pk]


def no_args(_world: World) -> list[object]:
    return []


def own_api_token(world: World, role: str) -> dict[str, object]:
    """The revoking form of a token of the role's own (each account revokes only his)."""
    from api import services as api_services

    made = api_services.api_token_create(
        user=world.users[role], name="Vietne", ip_address="10.0.0.1"
    )
    return {"token": made.token.pk}


SPECS: dict[str, ViewSpec] = {
    "organise:dashboard": ViewSpec(ANY_ROLE, no_args),
    "organise:create": ViewSpec(STAFF, no_args, lambda w: tournament_form()),
    "organise:clubs": ViewSpec(STAFF, no_args, lambda w: {"name": "Ogres Kārts"}),
    "organise:players": ViewSpec(STAFF, no_args),
    "organise:player_create": ViewSpec(
        STAFF, no_args, lambda w: {"full_name": "Jauna Spēlētāja", "is_active": "on"}
    ),
    "organise:player_import": ViewSpec(
        STAFF, no_args, lambda w: {"text": "Importēts Spēlētājs", "confirm": "1"}
    ),
    "organise:player_edit": ViewSpec(
        STAFF,
        lambda w: [w.unregistered.pk],
        lambda w: {"full_name": "Pārdēvēta Spēlētāja", "is_active": "on"},
    ),
    "organise:detail": ViewSpec(ORGANISERS, slug),
    "organise:edit": ViewSpec(
        ORGANISERS,
        slug,
        lambda w: tournament_form(name="Pārdēvēts", slug="kauss", deals_per_round=3),
    ),
    "organise:registrations": ViewSpec(
        ORGANISERS, slug, lambda w: {"players": [w.unregistered.pk]}
    ),
    "organise:registration_edit": ViewSpec(
        ORGANISERS,
        lambda w: [w.tournament.slug, w.tournament.registrations.first().pk],
        lambda w: {"withdraw-after_round": 1},
    ),
    "organise:meetings": ViewSpec(ORGANISERS, slug),
    "organise:signups": ViewSpec(ORGANISERS, slug, refuse_signup, prepare=open_signup),
    "organise:signups_accept": ViewSpec(
        ORGANISERS, slug, lambda w: {"count": 1}, has_page=False, prepare=open_signup
    ),
    "organise:fee_category_set": ViewSpec(
        ORGANISERS, slug, reduced_fee_for_two, has_page=False, prepare=with_fee_categories
    ),
    "organise:fees_paid_present": ViewSpec(
        ORGANISERS,
        round_2,
        lambda w: {},
        has_page=False,
        prepare=unseat_round_2_with_fees,
    ),
    "organise:round_create": ViewSpec(
        ORGANISERS, slug, lambda w: {}, has_page=False, prepare=drop_round_2
    ),
    "organise:round": ViewSpec(ORGANISERS, round_1),
    "organise:check_in": ViewSpec(
        ORGANISERS,
        round_2,
        lambda w: {
            "registrations": list(w.tournament.registrations.values_list("pk", flat=True)[:3])
        },
        has_page=False,
    ),
    "organise:generate": ViewSpec(
        ORGANISERS, round_2, lambda w: {"mode": "random", "seed": 99}, has_page=False
    ),
    "organise:swap": ViewSpec(ORGANISERS, round_2, swap_two, has_page=False),
    "organise:publish": ViewSpec(ORGANISERS, round_2, lambda w: {}, has_page=False),
    "organise:referees": ViewSpec(
        ORGANISERS, round_1, lambda w: {f"table_{w.table.pk}": [w.spare_referee.pk]}
    ),
    "organise:roles": ViewSpec(
        PEOPLE_PAGE,
        slug,
        lambda w: {"username": "newcomer", "role": "referee"},
        post_as={"chief_referee": lambda w: {"username": "newcomer", "role": "chief_referee"}},
    ),
    "organise:role_remove": ViewSpec(
        PEOPLE_PAGE,
        slug,
        lambda w: {"user": w.chief.pk, "role": "chief_referee"},
        has_page=False,
        # He removes table referees; removing a chief referee: test_organisers_never_...
        post_as={"organiser": lambda w: {"user": w.spare_referee.pk, "role": "referee"}},
    ),
    "organise:audit": ViewSpec(ORGANISERS, slug),
    # The hall display's private link shows the check-in code: its organisers' to give.
    "organise:display_link_new": ViewSpec(ORGANISERS, slug, lambda w: {}, has_page=False),
    "organise:display_link_revoke": ViewSpec(
        ORGANISERS, slug, lambda w: {}, has_page=False, prepare=make_display_link
    ),
    "organise:fees": ViewSpec(ORGANISERS, slug, lambda w: fee_category_form()),
    "organise:referee_call_answer": ViewSpec(
        SHEET_PRINTERS,
        open_call,
        lambda w: {"back": "round"},
        has_page=False,
        prepare=call_the_referee,
    ),
    "organise:clock": ViewSpec(
        SHEET_PRINTERS, round_1, lambda w: {"action": "start"}, has_page=False, prepare=time_round_1
    ),
    "organise:round_close": ViewSpec(
        ORGANISERS, round_1, lambda w: {}, has_page=False, prepare=confirm_round_1
    ),
    "entry:token_sheet": ViewSpec(EVERYONE, lambda w: [w.token], pass_deal),
    "entry:token_sync": ViewSpec(EVERYONE, lambda w: [w.token], has_page=False),
    "entry:table_worker": ViewSpec(EVERYONE, no_args),
    "entry:table_manifest": ViewSpec(EVERYONE, lambda w: [w.token]),
    "entry:table_sheet": ViewSpec(TABLE_WRITERS, this_table, pass_deal),
    # The phone's sync takes a JSON body (tests/entry/test_entry_sync.py writes through it):
    # a form's body is answered 400 and writes nothing, to whoever is let through.
    "entry:table_sync": ViewSpec(TABLE_WRITERS, this_table, has_page=False),
    "organise:table_link_new": ViewSpec(ORGANISERS, this_table, lambda w: {}, has_page=False),
    "organise:table_link_revoke": ViewSpec(ORGANISERS, this_table, lambda w: {"confirmed": "yes"}),
    "documents:round_sheets_pdf": ViewSpec(SHEET_PRINTERS, round_1),
    "documents:round_seating_pdf": ViewSpec(EVERYONE, round_1),
    "documents:standings_pdf": ViewSpec(EVERYONE, slug),
    # The money of the event: its organisers' alone.
    "documents:prizes": ViewSpec(ORGANISERS, slug),
    "documents:prizes_pdf": ViewSpec(ORGANISERS, slug),
    # A player checks himself in (the round's code, or his own link) whoever he is signed in
    # as.
    "public:check_in": ViewSpec(
        EVERYONE,
        slug,
        lambda w: {
            "registration": w.tournament.registrations.order_by("pk").first().pk,
            "code": w.round_2.check_in_code,
        },
        prepare=unseat_round_2,
    ),
    "public:my_check_in": ViewSpec(
        EVERYONE,
        lambda w: [
            w.tournament.slug,
            w.tournament.registrations.order_by("pk").first().check_in_token,
        ],
        lambda w: {},
        prepare=unseat_round_2,
    ),
    # A player's phone asks for messages, or stops them, by his own link: a JSON body
    # (tests/public/test_my_notices.py subscribes through it); a form's body writes nothing.
    "public:my_notices_subscribe": ViewSpec(EVERYONE, own_link, has_page=False),
    "public:my_notices_unsubscribe": ViewSpec(EVERYONE, own_link, has_page=False),
    "organise:notices": ViewSpec(ORGANISERS, slug, lambda w: {"text": "Pusdienas 30 min"}),
    "public:my_page_manifest": ViewSpec(EVERYONE, own_link),
    "public:my_page_worker": ViewSpec(EVERYONE, slug),
    "ranking:season": ViewSpec(EVERYONE, no_args),
    "ranking:rating": ViewSpec(EVERYONE, no_args),
    "organise:qualification": ViewSpec(ORGANISERS, slug, lambda w: {}, prepare=invite_to_the_final),
    "organise:invite": ViewSpec(
        ORGANISERS,
        slug,
        lambda w: {"player": w.unregistered.pk, "reason": "wild card", "scope": "final"},
        has_page=False,
    ),
    "organise:withdraw": ViewSpec(
        ORGANISERS,
        slug,
        lambda w: {"invitation": w.unregistered.invitations.get().pk},
        has_page=False,
        prepare=invite_to_the_final,
    ),
    "organise:seasons": ViewSpec(STAFF, no_args),
    # The API reads what the public pages show, to everyone alike (its POST: 405, no write).
    "api:api-root": ViewSpec(EVERYONE, no_args),
    "api:docs": ViewSpec(EVERYONE, no_args),
    "api:openapi-json": ViewSpec(EVERYONE, no_args),
    "api:tournaments": ViewSpec(EVERYONE, no_args),
    "api:tournament": ViewSpec(EVERYONE, slug),
    "api:round": ViewSpec(EVERYONE, round_1),
    "api:table": ViewSpec(
        EVERYONE, lambda w: [*round_1(w), w.table.number], prepare=confirm_round_1
    ),
    "api:standings": ViewSpec(EVERYONE, slug),
    "api:seasons": ViewSpec(EVERYONE, no_args),
    "api:season_ranking": ViewSpec(EVERYONE, no_args),
    "api:rating": ViewSpec(EVERYONE, no_args),
    "api:players": ViewSpec(EVERYONE, no_args),
    "api:player": ViewSpec(
        EVERYONE, lambda w: [w.table.seats.first().registration.player_id], prepare=confirm_round_1
    ),
    "api:player_statistics": ViewSpec(
        EVERYONE, lambda w: [w.table.seats.first().registration.player_id], prepare=confirm_round_1
    ),
    "api:clubs": ViewSpec(EVERYONE, no_args),
    # The table's link writes through the API as through the phone's address (its JSON body:
    # API_SPECS below); a form's body is answered 400 and writes nothing.
    "api:table_entries": ViewSpec(EVERYONE, lambda w: [w.token], has_page=False),
    # The public pages: everyone reads them (their POST: 405, no write); everyone registers.
    "public:tournaments": ViewSpec(EVERYONE, no_args),
    "public:tournament": ViewSpec(EVERYONE, slug),
    "public:calendar": ViewSpec(EVERYONE, no_args),
    "public:tournament_calendar": ViewSpec(EVERYONE, slug),
    "public:round": ViewSpec(EVERYONE, round_1),
    "public:table": ViewSpec(
        EVERYONE, lambda w: [*round_1(w), w.table.number], prepare=confirm_round_1
    ),
    "public:standings": ViewSpec(EVERYONE, slug),
    "public:statistics": ViewSpec(EVERYONE, slug, prepare=confirm_round_1),
    "public:display": ViewSpec(EVERYONE, slug),
    # Whoever holds the private link (the screen in the hall), signed in or not.
    "public:private_display": ViewSpec(EVERYONE, display_link, prepare=make_display_link),
    "public:display_clock": ViewSpec(EVERYONE, slug),
    "public:round_clock": ViewSpec(EVERYONE, round_1),
    "public:player": ViewSpec(
        EVERYONE, lambda w: [w.table.seats.first().registration.player_id], prepare=confirm_round_1
    ),
    "public:signup": ViewSpec(EVERYONE, slug, signup_form, prepare=open_signup),
    # The embeds other sites frame: read by everyone, as the pages they show.
    "public:embed_upcoming": ViewSpec(EVERYONE, no_args),
    "public:embed_standings": ViewSpec(EVERYONE, slug, prepare=confirm_round_1),
    "public:embed_ranking": ViewSpec(EVERYONE, no_args),
    "organise:season_create": ViewSpec(STAFF, no_args, lambda w: season_form()),
    "organise:season_edit": ViewSpec(STAFF, a_season, season_edit_form),
    # Organisers of any tournament hold API tokens; each revokes his own (api_token_of).
    "api_tokens:list": ViewSpec(TOKEN_HOLDERS, no_args, lambda w: {"name": "Federācijas vietne"}),
    "api_tokens:revoke": ViewSpec(
        TOKEN_HOLDERS,
        no_args,
        lambda w: own_api_token(w, "organiser"),
        has_page=False,
        post_as={
            role: partial(lambda role, w: own_api_token(w, role), role) for role in TOKEN_HOLDERS
        },
    ),
}


def named_views(patterns: list) -> list[str]:
    """The names of the views in `patterns`, those of an include without a namespace of its own
    (a group of pages under one prefix) among them."""
    names = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver) and pattern.namespace is None:
            names += named_views(pattern.url_patterns)
        elif getattr(pattern, "name", None):
            names.append(pattern.name)
    return names


def discovered_views() -> list[str]:
    """Every named view under the matrix's namespaces, as the URL resolver knows them."""
    names = []
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLResolver) and pattern.namespace in NAMESPACES:
            names += [f"{pattern.namespace}:{name}" for name in named_views(pattern.url_patterns)]
    return sorted(set(names))


def snapshot() -> dict[str, list[tuple]]:
    """Every row of the project's tables and of the accounts, to compare before and after."""
    models = [
        model
        for label in ("tournaments", "scoring", "ranking", "auth", "api")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    return {model._meta.label: list(model.objects.order_by("pk").values_list()) for model in models}


def changed_tables(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> list[str]:
    return [label for label in before if before[label] != after[label]]


def refusal(response, role: str) -> str | None:
    """None if the response refuses as it should, otherwise what is wrong."""
    if role == "anonymous":
        if response.status_code == 302 and response.url.startswith(reverse("login")):
            return None
        return f"expected a redirect to sign in, got {response.status_code}"
    return None if response.status_code == 403 else f"expected 403, got {response.status_code}"


def is_refusal(response) -> bool:
    return response.status_code == 403 or (
        response.status_code == 302 and response.url.startswith(reverse("login"))
    )


# --- The tests ------------------------------------------------------------------------------------


def test_every_view_is_in_the_matrix():
    discovered = [name for name in discovered_views() if name not in TOKEN_VIEWS]
    assert len(discovered) >= 28
    missing = sorted(set(discovered) - set(SPECS))
    assert not missing, f"give these views their roles in SPECS: {missing}"
    assert sorted(SPECS) == discovered, "SPECS names a view that no longer exists"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_role_is_refused_or_served(name, world, client):
    spec = SPECS[name]
    if spec.prepare is not None:
        spec.prepare(world)
    url = reverse(name, args=spec.args(world))
    problems: list[str] = []
    for role in ROLES:
        body = spec.body(world, role)
        user = world.users[role]
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        with transaction.atomic():
            before = snapshot()
            page = client.get(url)
            write = client.post(url, body)
            after = snapshot()
            transaction.set_rollback(True)  # the next role meets the same tournament
        if role in spec.allowed:
            if page.status_code != (200 if spec.has_page else 405):
                problems.append(f"{role} GET: {page.status_code}")
            if is_refusal(write) or write.status_code >= 500:
                problems.append(f"{role} POST refused or failed: {write.status_code}")
            elif spec.post is not None and not changed_tables(before, after):
                problems.append(f"{role} POST was allowed but wrote nothing ({write.status_code})")
            elif spec.post is None and changed_tables(before, after):
                problems.append(f"{role} reading changed {changed_tables(before, after)}")
        else:
            for method, response in (("GET", page), ("POST", write)):
                wrong = refusal(response, role)
                if wrong:
                    problems.append(f"{role} {method}: {wrong}")
            if changed_tables(before, after):
                problems.append(f"{role} was refused but changed {changed_tables(before, after)}")
    assert not problems, f"{name} ({url}):\n" + "\n".join(problems)


def test_the_matrix_covers_every_role_on_every_view():
    """The size of the matrix, stated: views × roles, each requested with GET and POST."""
    assert len(SPECS) * len(ROLES) == (len(discovered_views()) - len(TOKEN_VIEWS)) * 10
    guarded = [spec for spec in SPECS.values() if spec.allowed != EVERYONE]
    refused = sum(len(set(ROLES) - spec.allowed) for spec in guarded)
    assert refused > len(guarded) * 5  # most cells of the guarded views are refusals


@pytest.mark.parametrize(
    "name, args",
    [
        ("api:round", round_2),  # a draft: its seating may still change
        ("api:table", lambda w: [*round_1(w), w.table.number]),  # still in play
    ],
)
def test_no_role_reads_through_the_api_what_the_public_pages_do_not_show(name, args, world, client):
    """The API's reads are the public pages': signed in as anyone, a draft round and a table in
    play are not found (an organiser reads his drafts on his own pages)."""
    url = reverse(name, args=args(world))
    found = {}
    for role in ROLES:
        user = world.users[role]
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        found[role] = client.get(url).status_code
    assert found == dict.fromkeys(ROLES, 404)


def test_organisers_never_appoint_or_remove_a_chief_referee(world, client):
    """Separation of duties: an organiser who could make himself (or a friend) chief referee,
    or remove the one he has, could unlock confirmed tables. Staff and chief referees do it."""
    organiser = world.users["organiser"]
    client.force_login(organiser)
    people = reverse("organise:roles", args=[world.tournament.slug])
    remove = reverse("organise:role_remove", args=[world.tournament.slug])
    before = snapshot()

    for username in (organiser.username, world.newcomer.username):
        response = client.post(people, {"username": username, "role": "chief_referee"})
        assert response.status_code == 200 and response.context["form"].errors["role"]
    assert client.post(remove, {"user": world.chief.pk, "role": "chief_referee"}).status_code == 403

    assert not changed_tables(before, snapshot())
    for role in CHIEF_APPOINTERS:
        client.force_login(world.users[role])
        with transaction.atomic():
            response = client.post(people, {"username": "newcomer", "role": "chief_referee"})
            assert response.status_code == 302, role
            assert world.tournament.chief_referees.filter(pk=world.newcomer.pk).exists(), role
            transaction.set_rollback(True)


# --- Every write lands in the audit log -----------------------------------------------------------

# Writes the matrix's one POST per view leaves out: the entry form itself (its spec withdraws).
MORE_WRITES: dict[str, tuple[str, Callable[[World], list[object]], Callable[[World], dict]]] = {
    "entry form": (
        "organise:registration_edit",
        lambda w: [w.tournament.slug, w.tournament.registrations.first().pk],
        lambda w: {
            "registration-team": "Ogre",
            "registration-fixed_table": 2,
            "registration-first_round": 1,
        },
    ),
    "check-out of everybody": (
        "organise:check_in",
        round_2,
        lambda w: {},
    ),
    "a call to the chief referee from the table's page": (
        "entry:table_sheet",
        this_table,
        lambda w: {"action": "call_referee"},
    ),
}


def _writes() -> dict[str, tuple[str, Callable, Callable, Callable | None]]:
    # A player's self check-in is his own, by no account: its audit record names the player
    # (tests/public/test_player_check_in.py).
    writes = {
        name: (name, spec.args, spec.post, spec.prepare)
        for name, spec in SPECS.items()
        if spec.post is not None and not name.startswith("public:")
    }
    writes.update({label: (*write, None) for label, write in MORE_WRITES.items()})
    return writes


WRITES = _writes()


@pytest.mark.parametrize("label", sorted(WRITES))
def test_every_write_lands_in_the_audit_log_with_its_author(label, world, client):
    """An organiser's write (settings, entries, registrations, check-ins, withdrawals, the register
    of players and clubs, ...) leaves an audit record that names him. The writes are the matrix's: a
    new write view is walked here as soon as it is in SPECS."""
    from tournaments.models import AuditRecord

    name, args, post, prepare = WRITES[label]
    if prepare is not None:
        prepare(world)
    spec = SPECS[name]
    role = next(role for role in ("organiser", "staff", "chief_referee") if role in spec.allowed)
    if label in SPECS:  # the body this role may post (an organiser removes table referees only)
        post = spec.post_as.get(role, post)
    user = world.users[role]
    client.force_login(user)
    before = snapshot()
    newest = AuditRecord.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    response = client.post(reverse(name, args=args(world)), post(world))

    assert response.status_code < 400, response.status_code
    assert changed_tables(before, snapshot()), f"{label} wrote nothing"
    written = list(AuditRecord.objects.filter(pk__gt=newest))
    assert written, f"{label} ({name}) wrote {changed_tables(before, snapshot())} unaudited"
    assert {entry.user for entry in written} == {user}
    assert all(entry.ip_address for entry in written)


# --- The API's endpoints a personal token opens ---------------------------------------------------


def role_token(world: World, role: str) -> dict[str, str]:
    """The role's personal API token, as a program sends it (none for a visitor). An account
    that may not hold one is given one anyway, written straight to the database: the door must
    refuse it all the same."""
    import hashlib

    from api import services as api_services
    from api.models import ApiToken

    user = world.users[role]
    if user is None:
        return {}
    secret = f"zole_matrix-{role}"
    ApiToken.objects.create(
        user=user,
        name="Matrica",
        digest=hashlib.sha256(secret.encode()).hexdigest(),
        hint=secret[: api_services.HINT_LENGTH],
    )
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@dataclass(frozen=True)
class ApiSpec:
    allowed: frozenset[str]
    args: Callable[[World], list[object]]
    post: Callable[[World], dict[str, object]] | None = None  # None: a read (GET)


def import_list(_world: World) -> dict[str, object]:
    return {"players": [{"full_name": "Importēts Spēlētājs", "club": "Ogres Kārts"}]}


def table_entry(world: World) -> dict[str, object]:
    fields = {"deal-position": "1", "deal-client_key": "matrix-api-1", "deal-game": "pass"}
    return {"entries": [{"key": "matrix-api-1", "action": "deal", "fields": fields}]}


API_SPECS: dict[str, ApiSpec] = {
    "api:organised_tournaments": ApiSpec(TOKEN_HOLDERS, no_args),
    "api:organised_rounds": ApiSpec(ORGANISERS, slug),
    "api:organised_round": ApiSpec(ORGANISERS, round_2),  # a draft
    "api:players_import": ApiSpec(STAFF, slug, import_list),
    # The table's link is the key, not the token: whoever holds the link, token or none.
    "api:table_entries": ApiSpec(EVERYONE, lambda w: [w.token], table_entry),
}
# The views a personal token opens, and no session: only this matrix walks them.
TOKEN_VIEWS = frozenset(API_SPECS) - {"api:table_entries"}


@pytest.mark.parametrize("name", sorted(API_SPECS))
def test_every_role_s_token_is_refused_or_served_by_the_api(name, world):
    """Each role's token on each endpoint that takes one: refused 401 (no token, or one its
    owner may not hold) or 403 (not his tournament), changing nothing; or served, and its
    write written."""
    from django.test import Client

    spec = API_SPECS[name]
    url = reverse(name, args=spec.args(world))
    problems: list[str] = []
    for role in ROLES:
        with transaction.atomic():
            headers = role_token(world, role)
            before = snapshot()
            if spec.post is None:
                answer = Client().get(url, **headers)
            else:
                answer = Client().post(
                    url,
                    json.dumps(spec.post(world)),
                    content_type="application/json",
                    **headers,
                )
            after = snapshot()
            transaction.set_rollback(True)
        written = [label for label in changed_tables(before, after) if label != "api.ApiToken"]
        if role in spec.allowed:
            if answer.status_code not in (200, 201):
                problems.append(f"{role}: {answer.status_code} {answer.content[:200]!r}")
            elif spec.post is not None and not written:
                problems.append(f"{role}: allowed but wrote nothing")
        else:
            can_hold = role in TOKEN_HOLDERS
            if answer.status_code != (403 if can_hold else 401):
                problems.append(
                    f"{role}: expected {403 if can_hold else 401}, got {answer.status_code}"
                )
            if written:
                problems.append(f"{role} was refused but changed {written}")
    assert not problems, f"{name} ({url}):\n" + "\n".join(problems)


# --- Late and absent players: the sheet's own forms ----------------------------------------------


def late_rules(world: World) -> None:
    """Round 1 started 20 minutes ago, under a waiting time of 3 minutes and out by deal 4."""
    from django.utils import timezone

    Tournament.objects.filter(pk=world.tournament.pk).update(late_wait_minutes=3, late_out_deal=4)
    start = timezone.now() - datetime.timedelta(minutes=20)
    Round.objects.filter(pk=world.round_1.pk).update(published_at=start, clock_started_at=start)


@pytest.mark.parametrize(
    ("name", "args", "allowed"),
    [
        ("entry:table_sheet", lambda w: [w.table.pk], TABLE_WRITERS),
        ("entry:token_sheet", lambda w: [w.token], EVERYONE),
    ],
)
def test_a_late_arrival_is_recorded_by_the_tables_writers_only_and_audited(
    name, args, allowed, world, client
):
    from scoring.models import LatePlayer
    from tournaments.models import AuditRecord

    late_rules(world)
    url = reverse(name, args=args(world))
    late = {"action": "late", "late-player": seat_keys(world.table)[0]}
    out = {"action": "out", "out-player": seat_keys(world.table)[1]}
    problems = []
    for role in ROLES:
        user = world.users[role]
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        with transaction.atomic():
            before = snapshot()
            written = client.post(url, late)
            refused_out = client.post(url, out)  # a table of 3: never put out, by anyone
            recorded = LatePlayer.objects.filter(table=world.table).count()
            audited = list(AuditRecord.objects.filter(action=AuditRecord.Action.LATE_ARRIVAL))
            seats = world.table.seats.count()
            after = snapshot()
            transaction.set_rollback(True)
        if seats != 3:
            problems.append(f"{role}: a table of 3 lost a player")
        if refused_out.status_code >= 500:
            problems.append(f"{role} out: {refused_out.status_code}")
        if role in allowed:
            if written.status_code != 302 or recorded != 1:
                problems.append(f"{role} late: {written.status_code}, {recorded} recorded")
            elif [entry.user for entry in audited] != [user]:
                problems.append(f"{role} late: audited as {[e.user for e in audited]}")
        else:
            wrong = refusal(written, role)
            if wrong or changed_tables(before, after):
                problems.append(f"{role} late: {wrong or changed_tables(before, after)}")
    assert not problems, f"{name}:\n" + "\n".join(problems)
