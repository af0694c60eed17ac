"""A round's services: creating it, check-in, seating generation, swaps, publishing."""

from collections import Counter

import pytest

from scoring.services import round_generate_seating
from tests.factories import (
    make_club,
    make_organiser,
    make_registrations,
    make_tournament,
)
from tournaments import services
from tournaments.models import AuditRecord, CheckIn, RoundStatus, Seat

pytestmark = pytest.mark.django_db


def seated_entries(round_):
    return list(Seat.objects.filter(table__round=round_).values_list("registration_id", flat=True))


class TestRounds:
    def test_a_new_round_is_a_draft_with_the_tournaments_seating_mode(self):
        tournament = make_tournament(first_round_seating="mix", later_rounds_seating="swiss")
        round_ = services.round_create(tournament=tournament)
        assert (round_.number, round_.status, round_.seating_mode) == (1, "draft", "mix")

    def test_playing_entries_are_checked_in_late_and_withdrawn_ones_are_not(self):
        tournament = make_tournament()
        present, late, gone = make_registrations(tournament, 3)
        late.first_round = 2
        late.save()
        services.registration_withdraw(registration=gone, after_round=0, by=None)
        round_ = services.round_create(tournament=tournament)
        assert set(round_.check_ins.values_list("registration_id", flat=True)) == {present.pk}

    def test_a_round_cannot_start_while_the_previous_is_a_draft(self):
        tournament = make_tournament()
        services.round_create(tournament=tournament)
        with pytest.raises(services.ServiceError, match="still a draft"):
            services.round_create(tournament=tournament)

    def test_no_more_rounds_than_planned(self):
        tournament = make_tournament(rounds_planned=1)
        make_registrations(tournament, 3)
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        services.round_publish(round_=round_, by=None)
        with pytest.raises(services.ServiceError, match="1 round planned"):
            services.round_create(tournament=tournament)


class TestSeating:
    def test_every_checked_in_player_is_seated_exactly_once_at_tables_of_3_and_4(self):
        tournament = make_tournament()
        entries = make_registrations(tournament, 14, clubs=4)
        round_ = services.round_create(tournament=tournament)
        services.check_in_set(round_=round_, registrations=entries[:13])
        round_generate_seating(round_=round_, seed=7, by=None)
        assert sorted(seated_entries(round_)) == sorted(e.pk for e in entries[:13])
        sizes = sorted(table.seats.count() for table in round_.tables.all())
        assert sizes == [3, 3, 3, 4]  # 13 = 3 + 3 + 3 + 4: one table of 4 (13 mod 3)

    def test_the_seed_is_kept_and_gives_the_same_seating(self):
        tournament = make_tournament()
        make_registrations(tournament, 12)
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, mode="random", seed=42, by=None)
        first = list(
            Seat.objects.filter(table__round=round_).values_list("table__number", "registration_id")
        )
        round_generate_seating(round_=round_, mode="random", seed=42, by=None)
        again = list(
            Seat.objects.filter(table__round=round_).values_list("table__number", "registration_id")
        )
        round_.refresh_from_db()
        assert round_.seed == 42
        assert sorted(first) == sorted(again)

    def test_five_players_cannot_be_seated(self):
        tournament = make_tournament()
        make_registrations(tournament, 5)
        round_ = services.round_create(tournament=tournament)
        with pytest.raises(services.ServiceError, match="5"):
            round_generate_seating(round_=round_, seed=1, by=None)
        assert not round_.tables.exists()

    def test_round_two_avoids_the_table_mates_of_round_one(self):
        tournament = make_tournament(later_rounds_seating="mix")
        make_registrations(tournament, 30)
        first = services.round_create(tournament=tournament)
        round_generate_seating(round_=first, seed=3, by=None)
        services.round_publish(round_=first, by=None)
        second = services.round_create(tournament=tournament)
        round_generate_seating(round_=second, seed=3, by=None)

        def pairs(round_):
            found = Counter()
            for table in round_.tables.all():
                ids = sorted(table.seats.values_list("registration_id", flat=True))
                found.update((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
            return found

        assert not set(pairs(first)) & set(pairs(second))

    def test_regenerating_a_published_round_needs_the_typed_confirmation(self):
        organiser = make_organiser()
        tournament = make_tournament()
        make_registrations(tournament, 9)
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=organiser)
        services.round_publish(round_=round_, by=organiser)
        before = sorted(seated_entries(round_))
        with pytest.raises(services.ServiceError, match='type "regenerate round 1"'):
            round_generate_seating(round_=round_, seed=2, by=organiser, confirmation="yes")
        assert sorted(seated_entries(round_)) == before

        round_generate_seating(
            round_=round_, seed=2, by=organiser, confirmation="regenerate round 1"
        )
        audit = AuditRecord.objects.get(action=AuditRecord.Action.ROUND_REGENERATED)
        assert audit.user == organiser
        assert audit.detail["seed"] == 2
        assert len(audit.detail["before"]) == 3
        assert len(audit.detail["after"]) == 3
        round_.refresh_from_db()
        assert round_.status == RoundStatus.PUBLISHED

    def test_publishing_needs_a_seating(self):
        tournament = make_tournament()
        round_ = services.round_create(tournament=tournament)
        with pytest.raises(services.ServiceError, match="no seating"):
            services.round_publish(round_=round_, by=None)

    def test_check_in_changes_only_in_a_draft(self):
        tournament = make_tournament()
        entries = make_registrations(tournament, 3)
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        services.round_publish(round_=round_, by=None)
        with pytest.raises(services.ServiceError, match="draft"):
            services.check_in_set(round_=round_, registrations=entries[:2])
        assert CheckIn.objects.filter(round=round_).count() == 3


class TestSwap:
    def test_swapping_two_players_moves_them_and_reports_a_club_clash(self):
        club = make_club(name="Cēsu Pule")
        tournament = make_tournament(avoid_same_club=True)
        entries = make_registrations(tournament, 6)
        for entry in entries[:2]:
            entry.player.club = club
            entry.player.save()
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=5, by=None)
        first_table = {
            seat.registration_id: seat.table for seat in Seat.objects.filter(table__round=round_)
        }
        a, b = entries[0], entries[1]
        assert first_table[a.pk] != first_table[b.pk]  # club mates were kept apart
        partner = next(
            e for e in entries if first_table[e.pk] == first_table[b.pk] and e.pk != b.pk
        )
        warnings = services.round_swap_players(round_=round_, first=a, second=partner, by=None)
        now = {
            seat.registration_id: seat.table_id for seat in Seat.objects.filter(table__round=round_)
        }
        assert now[a.pk] == first_table[b.pk].pk
        assert now[partner.pk] == first_table[a.pk].pk
        assert any("Cēsu Pule" in warning for warning in warnings)
        table = first_table[b.pk]
        table.refresh_from_db()
        assert any(flag["code"] == "same_club" for flag in table.flags)

    def test_swapping_needs_a_draft(self):
        tournament = make_tournament()
        entries = make_registrations(tournament, 6)
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=5, by=None)
        services.round_publish(round_=round_, by=None)
        with pytest.raises(services.ServiceError, match="draft"):
            services.round_swap_players(round_=round_, first=entries[0], second=entries[1], by=None)


def test_flags_and_warnings_name_the_players_not_their_ids():
    club = make_club(name="Cēsu Pule")
    tournament = make_tournament(avoid_same_club=True)
    entries = make_registrations(tournament, 3)
    # Names without digits: a factory's "Līga Liepiņa 3" would read as the id 3.
    for entry, name in zip(entries, ["Anna Ozoliņa", "Jānis Bērziņš", "Līga Liepiņa"], strict=True):
        entry.player.club = club
        entry.player.full_name = name
        entry.player.save()
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=1, by=None)
    round_.refresh_from_db()
    table = round_.tables.get()
    detail = next(flag["detail"] for flag in table.flags if flag["code"] == "same_club")
    for entry in entries:
        assert entry.player.full_name in detail
        assert f" {entry.pk}," not in detail
    assert any(entries[0].player.full_name in warning for warning in round_.warnings)


def test_mix_plans_the_whole_tournament_so_15_players_meet_nobody_twice_in_7_rounds():
    # Round by round, 15 players run into repeats before round 7; a Kirkman schedule does not.
    tournament = make_tournament(
        rounds_planned=7, first_round_seating="mix", later_rounds_seating="mix"
    )
    make_registrations(tournament, 15)
    met = Counter()
    for _ in range(7):
        round_ = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, by=None)
        services.round_publish(round_=round_, by=None)
        for table in round_.tables.all():
            ids = sorted(table.seats.values_list("registration_id", flat=True))
            met.update((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
        round_.refresh_from_db()
        assert round_.warnings == []
    assert len(met) == 15 * 14 // 2  # every pair met, exactly once
    assert set(met.values()) == {1}


def test_mix_plans_again_when_the_players_change():
    tournament = make_tournament(first_round_seating="mix", later_rounds_seating="mix")
    entries = make_registrations(tournament, 9)
    first = services.round_create(tournament=tournament)
    round_generate_seating(round_=first, by=None)
    services.round_publish(round_=first, by=None)
    second = services.round_create(tournament=tournament)
    services.check_in_set(round_=second, registrations=entries[:6])
    round_generate_seating(round_=second, by=None)
    tournament.refresh_from_db()
    assert tournament.mix_plan["from_round"] == 2
    assert len(tournament.mix_plan["players"]) == 6
    assert sorted(seated_entries(second)) == sorted(entry.pk for entry in entries[:6])
