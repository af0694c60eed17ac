"""The rule set of a round: fixed when the round is published, changeable between rounds, and every
change of the settings audited with before and after; the presets fill every option."""

import json

import pytest
from django.urls import reverse

from engine.presets import PRESETS
from organise.forms.tournament import PRESET_CHOICES, TournamentForm
from scoring.services import round_generate_seating
from tests.factories import make_organiser, make_registrations, make_tournament
from tournaments import services
from tournaments.models import AuditRecord, RoundStatus, Tournament
from tournaments.rule_set import (
    RULE_SET_FIELDS,
    preset_options,
    round_rule_set,
    rule_set_from_options,
    rule_set_options,
    tournament_rule_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client):
    client.force_login(make_organiser())
    return client


def settings_form(tournament: Tournament, **changes: object) -> dict[str, object]:
    """The settings form as the organiser sees it filled in, with `changes` typed over it."""
    form = TournamentForm(instance=tournament)
    data: dict[str, object] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    data.pop("preset", None)
    data.update({name: str(value) for name, value in changes.items()})
    return data


def published_round(tournament: Tournament, players: int = 6):
    if not tournament.registrations.exists():
        make_registrations(tournament, players)
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=1, by=None)
    return services.round_publish(round_=round_, by=None)


class TestARoundKeepsItsRules:
    def test_publishing_fixes_the_options_the_round_is_played_with(self):
        tournament = make_tournament(deals_per_round=24)
        round_ = published_round(tournament)
        assert round_.rule_set == rule_set_options(tournament)
        assert set(round_.rule_set) == set(RULE_SET_FIELDS)

    def test_a_draft_follows_the_tournament(self):
        tournament = make_tournament(deals_per_round=24)
        make_registrations(tournament, 6)
        round_ = services.round_create(tournament=tournament)
        Tournament.objects.filter(pk=tournament.pk).update(deals_per_round=18)
        round_.tournament.refresh_from_db()
        assert round_rule_set(round_).deals_per_round == 18

    def test_a_change_between_rounds_applies_from_the_next_round(self, organiser_client):
        tournament = make_tournament(slug="kauss", deals_per_round=24)
        first = published_round(tournament)
        first.status = RoundStatus.CLOSED  # played and closed (the services are tested elsewhere)
        first.save()
        response = organiser_client.post(
            reverse("organise:edit", args=["kauss"]),
            settings_form(tournament, deals_per_round=28, all_pass="galdins"),
        )
        assert response.status_code == 302
        second = published_round(Tournament.objects.get(pk=tournament.pk))
        first.refresh_from_db()
        assert (round_rule_set(first).deals_per_round, round_rule_set(first).rules.all_pass) == (
            24,
            "pule",
        )
        assert (round_rule_set(second).deals_per_round, round_rule_set(second).rules.all_pass) == (
            28,
            "galdins",
        )

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("deals_per_round", 28),
            ("table_size", 4),
            ("all_pass", "galdins"),
            ("small_zole", True),
            ("personal_pule_payment", "N"),
            ("place_points_three", "3,2,1"),
        ],
    )
    @pytest.mark.parametrize("status", [RoundStatus.PUBLISHED, RoundStatus.IN_PLAY])
    def test_the_rules_cannot_change_while_a_round_is_played(
        self, organiser_client, field, value, status
    ):
        tournament = make_tournament(slug="kauss")
        round_ = published_round(tournament)
        round_.status = status
        round_.save()
        before = rule_set_options(tournament)
        audits = AuditRecord.objects.count()
        response = organiser_client.post(
            reverse("organise:edit", args=["kauss"]), settings_form(tournament, **{field: value})
        )
        assert response.status_code == 200
        page = response.content.decode()
        assert "round 1 is" in page and "applies from the next round" in page
        assert rule_set_options(Tournament.objects.get(pk=tournament.pk)) == before
        assert AuditRecord.objects.count() == audits  # refused: nothing written, nothing audited

    def test_other_settings_still_change_while_a_round_is_played(self, organiser_client):
        tournament = make_tournament(slug="kauss", venue="Rīga")
        published_round(tournament)
        response = organiser_client.post(
            reverse("organise:edit", args=["kauss"]),
            settings_form(tournament, venue="Cēsis", round_time_limit=55),
        )
        assert response.status_code == 302
        tournament.refresh_from_db()
        assert (tournament.venue, tournament.round_time_limit) == ("Cēsis", 55)

    def test_the_settings_page_says_why_the_rules_are_fixed(self, organiser_client):
        published_round(make_tournament(slug="kauss"))
        page = organiser_client.get(reverse("organise:edit", args=["kauss"])).content.decode()
        assert "Round 1 is published" in page

    def test_seating_made_for_other_table_sizes_is_not_published(self):
        tournament = make_tournament()
        make_registrations(tournament, 12)
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)  # 4 tables of 3
        Tournament.objects.filter(pk=tournament.pk).update(table_size=4)
        round_.tournament.refresh_from_db()
        with pytest.raises(services.ServiceError, match="generate the seating again"):
            services.round_publish(round_=round_, by=None)
        round_.refresh_from_db()
        assert round_.status == RoundStatus.DRAFT and round_.rule_set == {}


class TestSettingsAreAudited:
    def test_a_change_is_audited_with_before_and_after(self, organiser_client):
        tournament = make_tournament(slug="kauss", venue="Rīga", deals_per_round=24)
        organiser_client.post(
            reverse("organise:edit", args=["kauss"]),
            settings_form(tournament, venue="Cēsis", deals_per_round=28),
        )
        entry = AuditRecord.objects.get(action=AuditRecord.Action.SETTINGS_CHANGED)
        assert entry.tournament_id == tournament.pk and entry.user is not None
        assert entry.detail["before"] == {"venue": "Rīga", "deals_per_round": 24}
        assert entry.detail["after"] == {"venue": "Cēsis", "deals_per_round": 28}

    def test_saving_without_a_change_writes_no_audit_entry(self, organiser_client):
        tournament = make_tournament(slug="kauss")
        response = organiser_client.post(
            reverse("organise:edit", args=["kauss"]), settings_form(tournament)
        )
        assert response.status_code == 302
        assert not AuditRecord.objects.filter(action=AuditRecord.Action.SETTINGS_CHANGED).exists()

    def test_a_new_tournament_is_audited_with_its_settings(self, organiser_client):
        data = settings_form(Tournament(), name="Ogres kauss", slug="ogre", starts_on="2026-12-12")
        assert organiser_client.post(reverse("organise:create"), data).status_code == 302
        entry = AuditRecord.objects.get(action=AuditRecord.Action.SETTINGS_CHANGED)
        assert entry.detail["created"] is True
        assert entry.detail["after"]["starts_on"] == "2026-12-12"
        assert entry.detail["after"]["name"] == "Ogres kauss"


class TestDealsPerRound:
    @pytest.mark.parametrize("deals", [1, 16, 18, 20, 26, 28, 60])
    def test_any_whole_number_from_1_to_60_is_accepted(self, organiser_client, deals):
        tournament = make_tournament(slug="kauss")
        response = organiser_client.post(
            reverse("organise:edit", args=["kauss"]),
            settings_form(tournament, deals_per_round=deals),
        )
        assert response.status_code == 302
        assert Tournament.objects.get(pk=tournament.pk).deals_per_round == deals

    @pytest.mark.parametrize(
        ("deals", "table_size", "warned"),
        [(28, 4, False), (28, 3, True), (24, 3, False), (26, 4, True), (18, 3, False)],
    )
    def test_a_count_that_is_not_a_multiple_of_the_table_size_is_warned_about(
        self, organiser_client, deals, table_size, warned
    ):
        tournament = make_tournament(slug="kauss")
        response = organiser_client.post(
            reverse("organise:edit", args=["kauss"]),
            settings_form(tournament, deals_per_round=deals, table_size=table_size),
            follow=True,
        )
        page = response.content.decode()
        assert ("not everyone deals equally often" in page) is warned
        assert Tournament.objects.get(pk=tournament.pk).deals_per_round == deals


class TestPresets:
    def test_the_form_offers_every_preset_of_the_engine(self):
        assert [name for name, _label in PRESET_CHOICES] == list(PRESETS)

    def test_lzf_rondo_fills_the_federation_elite_options(self):
        assert preset_options("lzf-rondo") == {
            "all_pass": "galdins_pule",
            "galdins_scoring": "rondo",
            "small_zole": True,
            "small_zole_loss": 6,
            "personal_pule_payment": "N",
            "four_table_pass_pules": 2,
            "deals_per_round": 28,
            "deals_at_three": 27,
            "deals_at_four": 28,
            "table_size": 4,
            "place_points_three": "6,4,2",
            "place_points_four": "6,4,2,0; 1-4=2",
            "first_round_seating": "random",
            "later_rounds_seating": "ranked",
        }

    @pytest.mark.parametrize("name", list(PRESETS))
    def test_every_preset_lets_everyone_deal_equally_often_at_every_table_size(self, name):
        rule_set = rule_set_from_options(preset_options(name))
        for size in (3, 4):
            assert rule_set.deals_at(size) % size == 0, (name, size, rule_set.deals_at(size))

    def test_classic_is_the_tournament_defaults(self):
        defaults = Tournament()
        for name, value in preset_options("classic").items():
            assert getattr(defaults, name) == value, name

    def test_without_javascript_fill_in_shows_the_preset_unsaved(self, organiser_client):
        tournament = make_tournament(slug="kauss")
        data = settings_form(tournament, preset="lzf", fill_preset="1")
        response = organiser_client.post(reverse("organise:edit", args=["kauss"]), data)
        assert response.status_code == 200
        form = response.context["form"]
        assert form["table_size"].value() == "4" and form["deals_per_round"].value() == "28"
        assert form["later_rounds_seating"].value() == "ranked"
        assert Tournament.objects.get(pk=tournament.pk).table_size == 3  # nothing saved yet
        filled = {name: value for name, value in form.data.items() if name != "fill_preset"}
        saved = organiser_client.post(reverse("organise:edit", args=["kauss"]), filled)
        assert saved.status_code == 302
        assert tournament_rule_set(Tournament.objects.get(pk=tournament.pk)).table_size == 4

    def test_the_preset_list_carries_the_options_for_the_browser(self, organiser_client):
        response = organiser_client.get(reverse("organise:create"))
        widget = response.context["form"].fields["preset"].widget
        assert json.loads(widget.attrs["data-presets"])["lzf"] == preset_options("lzf")
