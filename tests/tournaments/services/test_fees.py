"""Entry fees: the categories, the fees ticked paid (who took them, when, audited) and the fund,
which is the fees paid and nothing else."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import make_organiser, make_registrations, make_tournament
from tournaments import selectors, services
from tournaments.models import AuditRecord, FeeCategory
from tournaments.services import CategoryRow

pytestmark = pytest.mark.django_db


def categories(tournament, *rows: tuple[str, str]) -> list[FeeCategory]:
    return services.fee_categories_save(
        tournament=tournament,
        rows=[CategoryRow(None, name, Decimal(amount)) for name, amount in rows],
        by=None,
    )


def test_the_fund_is_the_fees_paid_each_at_its_category_and_the_first_is_the_standard():
    tournament = make_tournament()
    anna, berta, cecilija, _dace = make_registrations(tournament, 4)
    standard, ladies = categories(tournament, ("Standarta", "15.00"), ("Dāmām", "10.50"))
    berta.fee_category = ladies
    berta.save()
    organiser = make_organiser()

    services.fees_paid_set(tournament=tournament, paid=[anna, berta, cecilija], by=organiser)

    fund = selectors.prize_fund(tournament=tournament)
    assert fund.total_cents == 1500 + 1050 + 1500
    assert [(row.name, row.paid, row.unpaid) for row in fund.categories] == [
        ("Standarta", 2, 1),
        ("Dāmām", 1, 0),
    ]
    assert (fund.paid, fund.unpaid) == (3, 1)
    anna.refresh_from_db()
    assert anna.fee_paid_at is not None
    assert anna.fee_paid_to == organiser
    entry = AuditRecord.objects.get(action=AuditRecord.Action.FEES_PAID)
    assert entry.user == organiser
    assert entry.detail["paid_count"] == 3
    assert standard.order == 0


def test_unticking_a_fee_takes_it_out_of_the_fund_and_is_audited():
    tournament = make_tournament()
    anna, berta = make_registrations(tournament, 2)
    categories(tournament, ("Standarta", "15"))
    services.fees_paid_set(tournament=tournament, paid=[anna, berta], by=None)

    services.fees_paid_set(tournament=tournament, paid=[anna], by=None)

    assert selectors.prize_fund(tournament=tournament).total_cents == 1500
    berta.refresh_from_db()
    assert (berta.fee_paid_at, berta.fee_paid_to) == (None, None)
    last = AuditRecord.objects.filter(action=AuditRecord.Action.FEES_PAID).first()
    assert last.detail["unpaid"] == [berta.player.full_name]


def test_ticking_the_same_fees_again_changes_nothing_and_writes_no_audit_record():
    tournament = make_tournament()
    (anna,) = make_registrations(tournament, 1)
    categories(tournament, ("Standarta", "15"))
    services.fees_paid_set(tournament=tournament, paid=[anna], by=None)
    paid_at = type(anna).objects.get(pk=anna.pk).fee_paid_at

    services.fees_paid_set(tournament=tournament, paid=[anna], by=None)

    assert type(anna).objects.get(pk=anna.pk).fee_paid_at == paid_at
    assert AuditRecord.objects.filter(action=AuditRecord.Action.FEES_PAID).count() == 1


def test_another_tournaments_registration_is_never_ticked_paid():
    tournament, other = make_tournament(), make_tournament()
    (stranger,) = make_registrations(other, 1)
    categories(tournament, ("Standarta", "15"))

    assert services.fees_paid_set(tournament=tournament, paid=[stranger], by=None) == 0
    stranger.refresh_from_db()
    assert stranger.fee_paid_at is None


def test_a_category_with_players_cannot_be_removed_and_nothing_changes():
    tournament = make_tournament()
    (anna,) = make_registrations(tournament, 1)
    standard, ladies = categories(tournament, ("Standarta", "15"), ("Dāmām", "10"))
    anna.fee_category = ladies
    anna.save()

    with pytest.raises(services.ServiceError, match="Dāmām has players"):
        services.fee_categories_save(
            tournament=tournament,
            rows=[
                CategoryRow(standard.pk, "Standarta", Decimal(15)),
                CategoryRow(ladies.pk, "Dāmām", Decimal(10), delete=True),
            ],
            by=None,
        )
    assert FeeCategory.objects.filter(tournament=tournament).count() == 2


def test_a_category_removed_needs_no_fee_and_one_kept_does():
    tournament = make_tournament()
    standard, ladies = categories(tournament, ("Standarta", "15"), ("Dāmām", "10"))

    with pytest.raises(ValueError, match="kept without its fee"):
        services.fee_categories_save(
            tournament=tournament, rows=[CategoryRow(standard.pk, "Standarta", None)], by=None
        )
    services.fee_categories_save(
        tournament=tournament,
        rows=[
            CategoryRow(standard.pk, "Standarta", Decimal(15)),
            CategoryRow(ladies.pk, "Dāmām", None, delete=True),
        ],
        by=None,
    )

    assert [category.name for category in tournament.fee_categories.all()] == ["Standarta"]


def test_categories_may_swap_names_and_order_and_the_change_is_audited():
    tournament = make_tournament()
    first, second = categories(tournament, ("A", "15"), ("B", "10"))

    services.fee_categories_save(
        tournament=tournament,
        rows=[CategoryRow(second.pk, "A", Decimal(10)), CategoryRow(first.pk, "B", Decimal(15))],
        by=None,
    )

    assert [(c.pk, c.name, c.amount) for c in selectors.fee_categories(tournament=tournament)] == [
        (second.pk, "A", Decimal("10.00")),
        (first.pk, "B", Decimal("15.00")),
    ]
    entry = AuditRecord.objects.filter(action=AuditRecord.Action.FEE_CATEGORIES).first()
    assert entry.detail["after"] == ["A 10.00", "B 15.00"]


def test_a_category_of_another_tournament_or_a_name_twice_is_refused():
    tournament, other = make_tournament(), make_tournament()
    (foreign,) = categories(other, ("X", "5"))

    with pytest.raises(services.ServiceError, match="not one of this tournament's"):
        services.fee_categories_save(
            tournament=tournament, rows=[CategoryRow(foreign.pk, "X", Decimal(5))], by=None
        )
    with pytest.raises(services.ServiceError, match="a name of its own"):
        categories(tournament, ("A", "5"), ("A", "6"))
    assert not FeeCategory.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize("twin", ["dāmām", "Dāmām\u200b", "Dāmаm", "Dāmām "])
def test_two_categories_whose_names_read_alike_are_refused(twin):
    tournament = make_tournament()
    with pytest.raises(services.ServiceError, match="a name of its own"):
        categories(tournament, ("Dāmām", "10"), (twin, "12"))
    assert not FeeCategory.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("language", "shown"), [("lv", "1\u00a0234,50\u00a0€"), ("en", "1,234.50\u00a0€")]
)
def test_money_is_shown_as_the_language_writes_it(language, shown):
    from django.utils import translation

    with translation.override(language):
        assert selectors.money_text(123450) == shown


def test_the_fund_is_read_in_three_queries_whatever_the_field(django_assert_num_queries):
    tournament = make_tournament()
    entries = make_registrations(tournament, 30)
    categories(tournament, ("Standarta", "15"), ("Juniori", "5"))
    services.fees_paid_set(tournament=tournament, paid=entries[:20], by=None)

    with django_assert_num_queries(3):
        fund = selectors.prize_fund(tournament=tournament)

    assert fund.total_cents == 20 * 1500
    assert (fund.paid, fund.unpaid) == (20, 10)


def test_without_fee_categories_there_is_no_fund():
    tournament = make_tournament()
    (anna,) = make_registrations(tournament, 1)
    services.fees_paid_set(tournament=tournament, paid=[anna], by=None)

    fund = selectors.prize_fund(tournament=tournament)

    assert (fund.total_cents, fund.categories) == (0, ())


class TestSeveralPlayersAtOnce:
    def test_a_fee_category_is_given_to_several_players_in_one_step(self):
        tournament = make_tournament()
        anna, berta, cilda = make_registrations(tournament, 3)
        standard, ladies = categories(tournament, ("Standarta", "15"), ("Dāmām", "10"))
        organiser = make_organiser()

        count = services.fee_category_set(
            tournament=tournament, registrations=[anna, cilda], category=ladies, by=organiser
        )

        assert count == 2
        fees = selectors.registration_fees(tournament=tournament)
        assert (fees[anna.pk], fees[berta.pk], fees[cilda.pk]) == (ladies, standard, ladies)
        (entry,) = AuditRecord.objects.filter(action=AuditRecord.Action.FEE_CATEGORY_SET)
        assert entry.user == organiser
        assert entry.detail["category"] == "Dāmām"
        assert entry.detail["players"] == sorted([anna.player.full_name, cilda.player.full_name])

    def test_another_tournaments_player_or_category_or_nobody_is_refused(self):
        tournament, other = make_tournament(), make_tournament()
        (anna,) = make_registrations(tournament, 1)
        (stranger,) = make_registrations(other, 1)
        (ladies,) = categories(tournament, ("Dāmām", "10"))
        (theirs,) = categories(other, ("Dāmām", "10"))
        for registrations, category in (([anna], theirs), ([anna, stranger], ladies), ([], ladies)):
            with pytest.raises(services.ServiceError):
                services.fee_category_set(
                    tournament=tournament,
                    registrations=registrations,
                    category=category,
                    by=None,
                )
        assert {anna.fee_category_id, stranger.fee_category_id} == {None}
        assert not AuditRecord.objects.filter(action=AuditRecord.Action.FEE_CATEGORY_SET).exists()

    def test_everyone_present_is_ticked_paid_in_one_step(self):
        tournament = make_tournament()
        anna, berta, cilda, dace = make_registrations(tournament, 4)
        categories(tournament, ("Standarta", "15"))
        round_ = services.round_create(tournament=tournament)  # everyone checked in
        services.check_in_set(round_=round_, registrations=[anna, berta, cilda], by=None)
        services.fees_paid_set(tournament=tournament, paid=[anna], by=None)
        anna.refresh_from_db()
        paid_earlier = anna.fee_paid_at
        organiser = make_organiser()

        count = services.fees_paid_by_present(round_=round_, by=organiser)

        assert count == 2  # Berta and Cilda; Anna had paid, Dace is absent
        assert set(selectors.fees_paid(tournament=tournament)) == {anna.pk, berta.pk, cilda.pk}
        anna.refresh_from_db()
        assert anna.fee_paid_at == paid_earlier
        entry = AuditRecord.objects.filter(action=AuditRecord.Action.FEES_PAID).latest("pk")
        assert entry.user == organiser
        assert entry.detail["paid"] == sorted([berta.player.full_name, cilda.player.full_name])
        assert dace.pk not in selectors.fees_paid(tournament=tournament)

    def test_everyone_present_paid_needs_a_fee_category(self):
        tournament = make_tournament()
        make_registrations(tournament, 3)
        round_ = services.round_create(tournament=tournament)
        with pytest.raises(services.ServiceError, match="fee categor"):
            services.fees_paid_by_present(round_=round_, by=None)
        assert not selectors.fees_paid(tournament=tournament)
