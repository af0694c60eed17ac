"""Hostile input shared by the tests that attack each app: names with markup and SQL in them,
numbers and texts a hostile visitor tries, a tournament full of such names (`world`), a
signed-in organiser (`staff`), and the checks that a request was refused and changed nothing
or shows what it stored escaped.

The clients here do not re-raise a view's exception: they answer 500 like a server would,
and every answer is checked."""

from __future__ import annotations

import itertools
import random
import unicodedata
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import strategies as st

from demo.simulation import table_plan
from scoring import services
from scoring.services import Writer, round_generate_seating
from scoring.sheet.lines import sheet_line
from tests.factories import deals_on_sheet, make_organiser, make_tournament, make_user, seat_keys
from tournaments import services as tournament_services
from tournaments.models import Club, Player, Registration, Round, Table, TableToken, Tournament
from tournaments.rule_set import round_rule_set

SCRIPT = '<script>alert("zole")</script>'
IMG = "<img src=x onerror=alert(1)>"
# Names a person could type or paste, each at most 120 characters (Player.full_name).
HOSTILE_NAMES = (
    f"{SCRIPT} Bērziņš",
    f'"{IMG} Ozoliņa',
    "Robert'); DROP TABLE tournaments_player; -- Kalniņš",
    "\u202eņšiņzreB sināJ\u202c Anna",  # a right-to-left override and its end
    "Jā\u200dnis\u200b Zar\u200ciņš\u2060",  # zero-width joiner, space, non-joiner, word joiner
    "Z\u0336\u0321a\u0327\u035dl\u0337g\u0338o\u0336 K\u0327i\u0335k\u0334u\u0335t\u0334e\u0337",
    "Pēteris 🂡🃏 👨\u200d👩\u200d👧 Līcis",  # emoji and a joined family
    "Līga & <b>Co</b> &amp; ]]> {{ x }} {% y %}",
    "Ā" * 120,
)
# What hides in a pasted name: format characters (zero-width, joiners, soft hyphen, word joiner,
# byte order mark, the bidirectional controls), a variation selector, the grapheme joiner.
INVISIBLE = tuple(
    "\u200b\u200c\u200d\u00ad\u2060\ufeff\u202a\u202b\u202c\u202d\u202e"
    "\u2066\u2067\u2068\u2069\u180e\ufe0f\u034f"
)
# What shows as a space: the no-break spaces, wide spaces, a Hangul filler.
SPACES = tuple(" \u00a0\u2003\u3000\u202f\u2009\u3164")


@st.composite
def hidden_variants(draw: st.DrawFn, text: str) -> str:
    """`text` as it may be typed or pasted to look the same: invisible letters anywhere, odd or
    doubled spaces, the marks apart from their letters (NFD)."""
    letters = unicodedata.normalize(draw(st.sampled_from(("NFC", "NFD"))), text)
    parts = [draw(st.text(st.sampled_from(INVISIBLE + SPACES), max_size=2))]
    for letter in letters:
        if letter == " ":
            letter = draw(st.text(st.sampled_from(SPACES), min_size=1, max_size=2))
        parts.append(draw(st.text(st.sampled_from(INVISIBLE), max_size=2)) + letter)
    parts.append(draw(st.text(st.sampled_from(INVISIBLE + SPACES), max_size=2)))
    return "".join(parts)


# Markup that must never reach a page as markup.
RAW_MARKERS = (SCRIPT, IMG, "<b>Co</b>")
ESCAPED_SCRIPT = "&lt;script&gt;alert(&quot;zole&quot;)&lt;/script&gt;"
LONG_TEXT = "Ā" * 10_000
NUL_TEXT = "Jānis\x00Bērziņš"
HUGE = 10**30
# Wrong values for a whole number, as a form posts them.
BAD_NUMBERS = ("", "abc", "-1", str(HUGE), "1e309", "NaN", "inf", "1.5", "0x10", "9" * 5000)
DEALS = 12


def hostile_client() -> Client:
    """A client that gets a server's 500 answer instead of the view's exception."""
    return Client(raise_request_exception=False)


def database_state() -> dict[str, list[dict[str, Any]]]:
    """Every row of the project's tables and the accounts: what a refused request must leave."""
    models = [
        *apps.get_app_config("tournaments").get_models(include_auto_created=True),
        *apps.get_app_config("scoring").get_models(include_auto_created=True),
        *apps.get_app_config("ranking").get_models(include_auto_created=True),
        get_user_model(),
    ]
    return {model._meta.label: list(model.objects.order_by("pk").values()) for model in models}


def error_shown(response) -> bool:
    """The answer says what is wrong: an error status, a form's error list, an error message."""
    if 400 <= response.status_code < 500:
        return True
    content = response.content.decode(errors="replace")
    return any(sign in content for sign in ('class="errorlist', "message error", 'role="alert"'))


def assert_refused(response, before: dict[str, Any], what: str) -> None:
    assert response.status_code < 500, f"{what}: server error"
    assert error_shown(response), f"{what}: no error shown (status {response.status_code})"
    assert database_state() == before, f"{what}: something was written"


def assert_escaped(response, what: str) -> None:
    assert response.status_code == 200, f"{what}: status {response.status_code}"
    content = response.content.decode()
    for marker in RAW_MARKERS:
        assert marker not in content, f"{what}: {marker!r} reaches the page as markup"


@dataclass
class World:
    tournament: Tournament
    players: list[Player]
    entries: list[Registration]
    round_1: Round
    round_2: Round
    table: Table  # round 2, table 1: in play
    token: TableToken
    chief: Any
    organiser: Any

    @property
    def next_position(self) -> int:
        """The in-play table's next entry: its two deals may have a penalty pule among them."""
        return 1 + max(self.table.deal_results.values_list("position", flat=True), default=0)

    def staff(self) -> Client:
        client = hostile_client()
        client.force_login(self.organiser)
        return client


client_keys = (f"hostile-{number}" for number in itertools.count())


def play(table: Table, writer: Writer, deals: int) -> None:
    """`deals` random valid deals (penalty pules now and then) through the service. The table's
    round and number seed them, never its id: the same sheet on every database and in any
    order of the tests (PostgreSQL's ids grow with the tests run before)."""
    keys = seat_keys(table)
    plan = table_plan(
        random.Random(f"{table.round.number}/{table.number}"),
        players=keys,
        first_dealer=keys[table.first_dealer_position - 1],
        deals=deals,
        rules=round_rule_set(table.round).rules,
    )
    for position, planned in enumerate(plan.entries, 1):
        services.deal_record(
            table=table,
            entry=planned.entry,
            position=position,
            client_key=next(client_keys),
            writer=writer,
        )


@pytest.fixture
def world() -> World:
    """Clubs, a tournament, venue, teams and nine players with hostile names; round 1 played,
    a deal corrected with a hostile reason, confirmed and closed; round 2 in play."""
    clubs = [
        Club.objects.create(name=f"{SCRIPT} klubs", city=IMG),
        Club.objects.create(name=f"{IMG} Dūzis"),
        Club.objects.create(name="Kārtis'; DROP TABLE tournaments_club; --"),
    ]
    tournament = make_tournament(
        name=f"{SCRIPT} kauss", venue=f"{IMG} zāle", teams_enabled=True, deals_per_round=DEALS
    )
    players = [
        Player.objects.create(
            full_name=name, club=clubs[index % 3], licence_number=f"<i>{index}</i>"
        )
        for index, name in enumerate(HOSTILE_NAMES)
    ]
    entries = [
        Registration.objects.create(
            tournament=tournament, player=player, team=(SCRIPT, "Komanda & <b>Co</b>")[index % 2]
        )
        for index, player in enumerate(players)
    ]
    organiser = make_organiser()
    chief = make_user()
    tournament.chief_referees.add(chief)
    round_1 = tournament_services.round_create(tournament=tournament)
    round_generate_seating(round_=round_1, seed=1, by=organiser)
    tournament_services.round_publish(round_=round_1, by=organiser)
    for table in round_1.tables.all():
        play(table, Writer(user=organiser), DEALS)
        first = table.deal_results.get(position=1)
        services.deal_correct(
            table=table,
            position=1,
            entry=sheet_line(first),
            base_version=1,
            client_key=next(client_keys),
            reason=f"{SCRIPT} {IMG}",
            writer=Writer(user=chief),
        )
        services.table_confirm(
            table=table, writer=Writer(user=chief), deals_seen=deals_on_sheet(table)
        )
    services.round_close(round_=round_1, writer=Writer(user=organiser))
    round_2 = tournament_services.round_create(tournament=tournament)
    round_generate_seating(round_=round_2, seed=2, by=organiser)
    tournament_services.round_publish(round_=round_2, by=organiser)
    table = round_2.tables.get(number=1)
    play(table, Writer(user=organiser), 2)
    return World(
        tournament=tournament,
        players=players,
        entries=entries,
        round_1=round_1,
        round_2=round_2,
        table=table,
        token=table.tokens.get(revoked_at__isnull=True),
        chief=chief,
        organiser=organiser,
    )


@pytest.fixture
def staff() -> Client:
    client = hostile_client()
    client.force_login(make_organiser())
    return client
