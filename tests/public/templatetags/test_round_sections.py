"""The round page's tables are kept in memory once rendered (public/templatetags/
round_sections.py): after a confirmation only the confirmed table is rendered again, and a page
built from memory is the page built without it, in every language."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from public.templatetags import round_sections
from tests.factories import make_registrations, make_tournament, seat_keys
from tests.public.test_views import round_url
from tests.tournament_play import confirm_with_totals, publish_next_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_memory():
    round_sections.section_html.cache_clear()
    yield
    round_sections.section_html.cache_clear()


@pytest.fixture
def rendered(monkeypatch) -> list[int]:
    """The numbers of the tables whose section the template rendered."""
    numbers: list[int] = []
    real = round_sections.get_template

    class Counting:
        def __init__(self, name: str) -> None:
            self.template = real(name)

        def render(self, context):
            numbers.append(context["table"].number)
            return self.template.render(context)

    monkeypatch.setattr(round_sections, "get_template", Counting)
    return numbers


def built(client: Client, url: str, **headers) -> str:
    cache.clear()  # the page cache: the page really built
    return client.get(url, **headers).content.decode()


def test_after_a_confirmation_only_the_confirmed_table_is_rendered_again(
    client: Client, rendered: list[int]
):
    tournament = make_tournament(slug="atminas-kauss")
    make_registrations(tournament, 9)
    round_ = publish_next_round(tournament)
    url = round_url(tournament, 1)
    built(client, url)
    assert sorted(rendered) == [1, 2, 3]

    second = round_.tables.get(number=2)
    confirm_with_totals(second, dict(zip(seat_keys(second), (10, -4, -6), strict=True)))
    rendered.clear()
    page = built(client, url)

    assert rendered == [2]
    assert "-6" in page
    round_sections.section_html.cache_clear()
    assert built(client, url) == page
    assert sorted(rendered) == [1, 2, 2, 3]


def test_a_table_kept_in_one_language_is_not_served_in_another(client: Client):
    tournament = make_tournament(slug="valodu-kauss")
    make_registrations(tournament, 6)
    publish_next_round(tournament)
    url = round_url(tournament, 1)
    latvian = built(client, url)
    russian = built(client, url, HTTP_ACCEPT_LANGUAGE="ru")
    round_sections.section_html.cache_clear()

    assert russian != latvian
    assert built(client, url, HTTP_ACCEPT_LANGUAGE="ru") == russian


def test_a_search_marks_the_tables_it_found(client: Client):
    tournament = make_tournament(slug="meklesanas-kauss")
    make_registrations(tournament, 6)
    round_ = publish_next_round(tournament)
    url = round_url(tournament, 1)
    built(client, url)  # every table kept unmarked
    name = round_.tables.get(number=2).seats.first().registration.player.full_name

    page = built(client, url + "?q=" + name.split()[-1])

    assert '<section class="seating-table round-table match" id="table-2">' in page
