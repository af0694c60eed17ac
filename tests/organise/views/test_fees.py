"""The fees on the organiser's pages: categories on the fees page, the paid tick at check-in,
the costs share and the places' percentages in the settings."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import make_organiser, make_registrations, make_tournament
from tests.hostile import assert_refused, database_state
from tournaments import services
from tournaments.models import AuditRecord, FeeCategory, Registration
from tournaments.services import CategoryRow

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client):
    client.force_login(make_organiser())
    return client


@pytest.fixture
def tournament():
    tournament = make_tournament(slug="gulbene")
    make_registrations(tournament, 6)
    services.fee_categories_save(
        tournament=tournament,
        rows=[
            CategoryRow(None, "Standarta", Decimal(15)),
            CategoryRow(None, "Dāmām", Decimal(10)),
        ],
        by=None,
    )
    services.round_create(tournament=tournament)
    return tournament


def test_fees_are_ticked_paid_with_the_check_in_and_shown_with_each_players_fee(
    organiser_client, tournament
):
    entries = list(tournament.registrations.order_by("pk"))
    page = organiser_client.get(reverse("organise:round", args=["gulbene", 1]))
    assert "Standarta 15.00\u00a0€" in page.content.decode()

    response = organiser_client.post(
        reverse("organise:check_in", args=["gulbene", 1]),
        {
            "attendance": "1",
            "registrations": [entry.pk for entry in entries],
            "fees_on_screen": "1",
            "paid": [entries[0].pk, entries[1].pk],
        },
    )

    assert response.status_code == 302
    assert Registration.objects.filter(fee_paid_at__isnull=False).count() == 2
    assert AuditRecord.objects.filter(action=AuditRecord.Action.FEES_PAID).exists()


def test_fees_left_out_of_a_check_in_request_stay_as_they_are(organiser_client, tournament):
    entries = list(tournament.registrations.all())
    services.fees_paid_set(tournament=tournament, paid=entries[:3], by=None)

    organiser_client.post(
        reverse("organise:check_in", args=["gulbene", 1]),
        {"attendance": "1", "registrations": [entries[0].pk]},
    )

    assert Registration.objects.filter(fee_paid_at__isnull=False).count() == 3


@pytest.mark.parametrize("paid", [["999999999999999999999999"], ["x"], ["-1"], ["1e3"]], ids=str)
def test_a_hostile_paid_tick_is_refused_and_changes_nothing(organiser_client, tournament, paid):
    response = organiser_client.post(
        reverse("organise:check_in", args=["gulbene", 1]),
        {"fees_on_screen": "1", "paid": paid},
        follow=True,
    )

    assert response.status_code == 200
    assert "Tick the players who paid their fee." in response.content.decode()
    assert not Registration.objects.filter(fee_paid_at__isnull=False).exists()


def test_the_fees_page_adds_renames_and_removes_categories(organiser_client, tournament):
    standard, ladies = FeeCategory.objects.filter(tournament=tournament)
    url = reverse("organise:fees", args=["gulbene"])
    assert organiser_client.get(url).status_code == 200

    response = organiser_client.post(
        url,
        {
            "fees-TOTAL_FORMS": "4",
            "fees-INITIAL_FORMS": "2",
            "fees-0-category": standard.pk,
            "fees-0-name": "Standarta",
            "fees-0-amount": "20.00",
            "fees-1-category": ladies.pk,
            "fees-1-name": "Dāmām",
            "fees-1-amount": "10",
            "fees-1-remove": "on",
            "fees-2-name": "Juniori",
            "fees-2-amount": "5.5",
            "fees-3-name": "",
        },
    )

    assert response.status_code == 302
    assert [(c.name, c.amount) for c in FeeCategory.objects.filter(tournament=tournament)] == [
        ("Standarta", Decimal("20.00")),
        ("Juniori", Decimal("5.50")),
    ]


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ({"fees-0-name": "Standarta", "fees-0-amount": ""}, "Give the fee"),
        ({"fees-0-name": "", "fees-0-amount": "15"}, "Name the category."),
        ({"fees-0-name": "A", "fees-0-amount": "-1"}, "greater than or equal to 0"),
        ({"fees-0-name": "A", "fees-0-amount": "NaN"}, "Enter a number."),
        ({"fees-0-name": "A", "fees-0-amount": "1e9"}, "less than or equal to 99999.99"),
        ({"fees-0-name": "A", "fees-0-amount": "1", "fees-0-category": "99999999999999999999"}, ""),
    ],
)
def test_a_bad_category_row_is_refused_and_changes_nothing(
    organiser_client, tournament, row, error
):
    before = list(FeeCategory.objects.values_list("name", "amount"))
    response = organiser_client.post(
        reverse("organise:fees", args=["gulbene"]),
        {"fees-TOTAL_FORMS": "1", "fees-INITIAL_FORMS": "0", **row},
    )

    assert response.status_code in {200, 302}
    if error:
        assert error in response.content.decode()
    assert list(FeeCategory.objects.values_list("name", "amount")) == before


@pytest.mark.parametrize(
    ("costs", "shares", "error"),
    [
        ("20", "40 25 15 10 5", "add up to 100, they add up to 95"),
        ("120", "100", "a percentage is 0 to 100"),
        ("-5", "100", "a percentage is 0 to 100"),
        ("NaN", "100", "Enter a number."),
        ("20", "10 90", "place 2 must not get a larger percentage than place 1"),
        ("20", "abc", "a percentage must be a number from 0 to 100"),
    ],
)
def test_the_settings_refuse_a_split_that_does_not_add_up(
    organiser_client, tournament, costs, shares, error
):
    page = organiser_client.get(reverse("organise:edit", args=["gulbene"]))
    data = {
        key: value
        for key, value in page.context["form"].initial.items()
        if value is not None and key not in {"organisers", "chief_referees", "referees"}
    }
    data.update(prize_costs_percent=costs, prize_shares=shares)

    response = organiser_client.post(reverse("organise:edit", args=["gulbene"]), data)

    assert response.status_code == 200
    assert error in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.prize_shares == ""


def test_a_category_named_with_markup_is_shown_escaped_on_every_fee_page(
    organiser_client, tournament
):
    from tests.hostile import ESCAPED_SCRIPT, SCRIPT

    FeeCategory.objects.filter(tournament=tournament, name="Dāmām").update(name=SCRIPT)
    entry = tournament.registrations.first()
    entry.fee_category = FeeCategory.objects.get(name=SCRIPT)
    entry.save()
    services.fees_paid_set(tournament=tournament, paid=[entry], by=None)

    for url in (
        reverse("organise:fees", args=["gulbene"]),
        reverse("organise:round", args=["gulbene", 1]),
        reverse("documents:prizes", args=["gulbene"]),
    ):
        body = organiser_client.get(url).content.decode()
        assert SCRIPT not in body, url
        assert ESCAPED_SCRIPT in body, url
    pdf = organiser_client.get(reverse("documents:prizes_pdf", args=["gulbene"]))
    assert pdf.status_code == 200


@pytest.mark.parametrize(
    ("language", "heading"),
    [("lv", "Dalības maksas un balvas"), ("ru", "Взносы и призы"), ("en", "Fees and prizes")],
)
def test_the_fee_pages_speak_latvian_russian_and_english(tournament, language, heading):
    from django.test import Client

    client = Client(headers={"accept-language": language})
    client.force_login(make_organiser())

    prizes = client.get(reverse("documents:prizes", args=["gulbene"])).content.decode()
    fees = client.get(reverse("organise:fees", args=["gulbene"])).content.decode()

    assert f"<h1>{heading}</h1>" in prizes
    assert f'<html lang="{language}">' in fees


@pytest.mark.parametrize("category", ["99999999999999999999999", "abc", "-1", "0"])
def test_a_hostile_fee_category_on_a_registration_is_refused(
    organiser_client, tournament, category
):
    entry = tournament.registrations.first()

    response = organiser_client.post(
        reverse("organise:registration_edit", args=["gulbene", entry.pk]),
        {
            "registration-team": "",
            "registration-first_round": 1,
            "registration-fee_category": category,
        },
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    entry.refresh_from_db()
    assert entry.fee_category is None


def test_another_tournaments_fee_category_cannot_be_given(organiser_client, tournament):
    other = make_tournament()
    (foreign,) = services.fee_categories_save(
        tournament=other, rows=[CategoryRow(None, "Svešā", Decimal(1))], by=None
    )
    entry = tournament.registrations.first()

    organiser_client.post(
        reverse("organise:registration_edit", args=["gulbene", entry.pk]),
        {"registration-first_round": 1, "registration-fee_category": foreign.pk},
    )

    entry.refresh_from_db()
    assert entry.fee_category is None


def test_the_registrations_page_gives_the_ticked_players_a_fee_and_lists_each_ones_fee(
    organiser_client, tournament
):
    _standard, ladies = FeeCategory.objects.filter(tournament=tournament)
    anna, berta, *_rest = tournament.registrations.order_by("pk")
    registrations_url = reverse("organise:registrations", args=["gulbene"])
    page = organiser_client.get(registrations_url).content.decode()
    assert f'<option value="{ladies.pk}" selected>' in page  # the reduced fee comes first

    response = organiser_client.post(
        reverse("organise:fee_category_set", args=["gulbene"]),
        {"registrations": [anna.pk, berta.pk], "category": ladies.pk},
        follow=True,
    )

    assert response.redirect_chain[-1][0] == registrations_url
    content = response.content.decode()
    assert "Dāmām: the fee of 2 players." in content
    rows = content[content.index("<tbody>") : content.index("</tbody>")]
    assert rows.count("<td>Dāmām</td>") == 2 and rows.count("<td>Standarta</td>") == 4
    assert set(Registration.objects.filter(fee_category=ladies)) == {anna, berta}
    assert AuditRecord.objects.filter(action=AuditRecord.Action.FEE_CATEGORY_SET).count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"category": "LADIES"},
        {"registrations": "REGISTRATION"},
        {"registrations": "REGISTRATION", "category": "THEIRS"},
        {"registrations": "STRANGER", "category": "LADIES"},
        {"registrations": "REGISTRATION", "category": "99999999999999999999999"},
        {"registrations": ["x", "-1"], "category": "LADIES"},
    ],
    ids=str,
)
def test_a_hostile_fee_category_for_several_is_refused(organiser_client, tournament, body):
    other = make_tournament()
    (stranger,) = make_registrations(other, 1)
    (theirs,) = services.fee_categories_save(
        tournament=other, rows=[CategoryRow(None, "Citiem", Decimal(5))], by=None
    )
    values = {
        "LADIES": FeeCategory.objects.get(tournament=tournament, name="Dāmām").pk,
        "THEIRS": theirs.pk,
        "REGISTRATION": tournament.registrations.first().pk,
        "STRANGER": stranger.pk,
    }
    data = {key: values.get(value, value) for key, value in body.items() if isinstance(value, str)}
    data |= {key: value for key, value in body.items() if isinstance(value, list)}
    before = database_state()
    response = organiser_client.post(
        reverse("organise:fee_category_set", args=["gulbene"]), data, follow=True
    )
    assert_refused(response, before, str(body))


def test_everyone_present_has_paid_in_one_click_with_the_check_in_on_screen(
    organiser_client, tournament
):
    entries = list(tournament.registrations.order_by("pk"))
    round_page = organiser_client.get(reverse("organise:round", args=["gulbene", 1]))
    all_paid = reverse("organise:fees_paid_present", args=["gulbene", 1])
    assert f'formaction="{all_paid}"' in round_page.content.decode()

    response = organiser_client.post(
        all_paid,
        {
            "attendance": "1",
            "registrations": [entry.pk for entry in entries[:5]],  # the sixth did not come
            "fees_on_screen": "1",
            "paid": [],
        },
        follow=True,
    )

    assert "Everyone present has paid: 5 fees paid in all." in response.content.decode()
    paid = set(Registration.objects.filter(fee_paid_at__isnull=False))
    assert paid == set(entries[:5])
    assert set(tournament.rounds.get().check_ins.values_list("registration", flat=True)) == {
        entry.pk for entry in entries[:5]
    }


def test_everyone_present_has_paid_refuses_a_hostile_check_in(organiser_client, tournament):
    before = database_state()
    response = organiser_client.post(
        reverse("organise:fees_paid_present", args=["gulbene", 1]),
        {"attendance": "1", "registrations": ["99999999999999999999999"], "fees_on_screen": "1"},
        follow=True,
    )
    assert_refused(response, before, "a hostile check-in")
