"""How many deals a round has at a table of 3 and at a table of 4: everyone at a table deals
equally often only when its deal count is a multiple of its size. The count may be set per table
size, and the round page warns the organiser when a table's dealing is uneven."""

import itertools

import pytest
from django.urls import reverse

from demo.simulation import play_simulated_round
from documents.selectors import round_score_sheets
from engine import Play, dealer_for
from engine.rules import Game
from scoring import services as scoring
from scoring.selectors.progress import round_table_links
from scoring.services import Writer
from scoring.sheet.reader import table_sheet
from tests.factories import make_organiser, make_published_round, make_tournament, seat_keys
from tests.tournaments.test_rule_set import settings_form
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.rule_set import round_rule_set, rule_set_options
from tournaments.selectors.rounds import UnevenDealing

pytestmark = pytest.mark.django_db

keys = (f"deal-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.7")


def table_of(round_, size: int):
    return next(table for table in round_.tables.all() if table.seats.count() == size)


def play_deals(table, count: int) -> None:
    players = seat_keys(table)
    for index in range(count):
        dealer = dealer_for(players, players[0], index)
        declarer = next(p for p in players if p != dealer)
        scoring.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, declarer, tricks=5, points=75),
            position=index + 1,
            client_key=next(keys),
            writer=REFEREE,
        )


class TestADealCountPerTableSize:
    def test_a_table_of_three_plays_its_own_count_in_a_round_of_fours(self):
        tournament = make_tournament(table_size=4, deals_per_round=28, deals_at_three=27)
        round_ = make_published_round(tournament, players=7)  # a table of 4 and one of 3
        assert round_rule_set(round_).deals_at(4) == 28
        assert round_rule_set(round_).deals_at(3) == 27
        links = {link.table.seats.count(): link for link in round_table_links(round_=round_)}
        assert links[4].deals_per_round == 28
        assert links[3].deals_per_round == 27

    def test_the_table_of_three_is_complete_after_its_own_count(self):
        tournament = make_tournament(table_size=4, deals_per_round=8, deals_at_three=6)
        round_ = make_published_round(tournament, players=7)
        three = table_of(round_, 3)
        play_deals(three, 6)
        sheet = table_sheet(table_id=three.pk)
        assert sheet.deals_per_round == 6
        assert sheet.is_complete
        with pytest.raises(services.ServiceError, match="all 6 deals"):
            play_deals_from(three, position=7)
        four = table_of(round_, 4)
        play_deals(four, 6)
        assert not table_sheet(table_id=four.pk).is_complete

    def test_without_a_count_per_size_every_table_plays_the_deals_per_round(self):
        tournament = make_tournament(table_size=4, deals_per_round=28)
        round_ = make_published_round(tournament, players=7)
        assert [round_rule_set(round_).deals_at(size) for size in (3, 4)] == [28, 28]

    def test_a_published_round_keeps_its_counts(self):
        tournament = make_tournament(table_size=4, deals_per_round=28, deals_at_three=24)
        round_ = make_published_round(tournament, players=7)
        Tournament.objects.filter(pk=tournament.pk).update(deals_at_three=27)
        round_.refresh_from_db()
        assert round_rule_set(round_).deals_at(3) == 24

    def test_a_round_published_before_the_option_existed_plays_the_deals_per_round(self):
        tournament = make_tournament(table_size=4, deals_per_round=28)
        round_ = make_published_round(tournament, players=7)
        stored = dict(round_.rule_set)
        del stored["deals_at_three"], stored["deals_at_four"]
        round_.rule_set = stored
        round_.save(update_fields=["rule_set"])
        Tournament.objects.filter(pk=tournament.pk).update(deals_at_three=27)
        round_.refresh_from_db()
        assert round_rule_set(round_).deals_at(3) == 28


def play_deals_from(table, *, position: int) -> None:
    players = seat_keys(table)
    scoring.deal_record(
        table=table,
        entry=Play(Game.LIELAIS, players[1], tricks=5, points=75),
        position=position,
        client_key=next(keys),
        writer=REFEREE,
    )


def uneven(round_) -> list[UnevenDealing]:
    return selectors.uneven_dealing(round_=round_, tables=selectors.round_tables(round_=round_))


class TestUnevenDealing:
    def test_28_deals_at_a_table_of_three_is_uneven(self):
        tournament = make_tournament(table_size=4, deals_per_round=28)
        round_ = make_published_round(tournament, players=7)
        assert uneven(round_) == [UnevenDealing(size=3, deals=28, tables=1)]

    def test_a_count_that_fits_each_size_is_even(self):
        tournament = make_tournament(table_size=4, deals_per_round=28, deals_at_three=27)
        round_ = make_published_round(tournament, players=7)
        assert uneven(round_) == []

    def test_only_the_sizes_the_round_seats_count(self):
        tournament = make_tournament(table_size=3, deals_per_round=24, deals_at_four=26)
        round_ = make_published_round(tournament, players=6)  # two tables of 3
        assert uneven(round_) == []


class TestTheRoundPageWarns:
    def page(self, client, round_) -> str:
        client.force_login(make_organiser())
        url = reverse("organise:round", args=[round_.tournament.slug, round_.number])
        return client.get(url).content.decode()

    def test_uneven_dealing_is_said_with_the_table_size_and_count(self, client):
        tournament = make_tournament(table_size=4, deals_per_round=28)
        html = self.page(client, make_published_round(tournament, players=7))
        assert 'class="warning uneven-dealing"' in html
        assert "28 deals at a table of 3" in html

    def test_even_dealing_says_nothing(self, client):
        tournament = make_tournament(table_size=4, deals_per_round=28, deals_at_three=27)
        html = self.page(client, make_published_round(tournament, players=7))
        assert "uneven-dealing" not in html


class TestTheSettings:
    @pytest.fixture
    def organiser_client(self, client):
        client.force_login(make_organiser())
        return client

    def test_the_count_at_a_table_of_three_is_a_setting(self, organiser_client):
        tournament = make_tournament(table_size=4, deals_per_round=28)
        url = reverse("organise:edit", args=[tournament.slug])
        response = organiser_client.post(url, settings_form(tournament, deals_at_three=27))
        assert response.status_code == 302
        tournament.refresh_from_db()
        assert tournament.deals_at_three == 27
        assert rule_set_options(tournament)["deals_at_three"] == 27

    @pytest.mark.parametrize("deals", [0, 61, -3])
    def test_a_count_out_of_range_is_refused(self, organiser_client, deals):
        tournament = make_tournament(table_size=4, deals_per_round=28)
        url = reverse("organise:edit", args=[tournament.slug])
        response = organiser_client.post(url, settings_form(tournament, deals_at_three=deals))
        assert response.status_code == 200
        assert response.context["form"].errors["deals_at_three"]
        tournament.refresh_from_db()
        assert tournament.deals_at_three is None


class TestEverythingReadsTheTablesCount:
    def test_the_score_sheets_print_each_tables_own_rows(self):
        tournament = make_tournament(table_size=4, deals_per_round=28, deals_at_three=27)
        round_ = make_published_round(tournament, players=7)
        sheets = round_score_sheets(round_=round_, entry_url=lambda token: token)
        assert sorted((sheet.size, len(sheet.deals)) for sheet in sheets.sheets) == [
            (3, 27),
            (4, 28),
        ]

    def test_a_simulated_round_plays_each_tables_own_count(self):
        tournament = make_tournament(table_size=4, deals_per_round=8, deals_at_three=6)
        round_ = make_published_round(tournament, players=7)
        play_simulated_round(round_, seed=1, fast=True)
        assert sorted(
            (link.table.seats.count(), link.deals_entered, link.is_confirmed)
            for link in round_table_links(round_=round_)
        ) == [(3, 6, True), (4, 8, True)]


def test_a_preset_filled_in_sets_the_deals_at_each_table_size(client):
    client.force_login(make_organiser())
    tournament = make_tournament(table_size=4, deals_per_round=28, deals_at_three=24)
    url = reverse("organise:edit", args=[tournament.slug])
    data = settings_form(tournament, preset="lzf", fill_preset="1")
    form = client.post(url, data).context["form"]
    assert (form["deals_at_three"].value(), form["deals_at_four"].value()) == ("27", "28")
    assert form.is_valid(), form.errors
