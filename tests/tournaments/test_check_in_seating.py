"""Check-in and seating: the seating is generated from the attendance on screen (saved with it,
in one transaction), and a round whose seated players are not the present ones is not published
without the organiser seeing who differs."""

import re

import pytest
from django.urls import reverse

from scoring.services import round_generate_seating
from tests.factories import make_organiser, make_registrations, make_tournament
from tournaments import selectors, services
from tournaments.models import AuditRecord, CheckIn, Round, RoundStatus, Seat

pytestmark = pytest.mark.django_db


def seated(round_) -> set[int]:
    return set(Seat.objects.filter(table__round=round_).values_list("registration_id", flat=True))


def checked_in(round_) -> set[int]:
    return set(CheckIn.objects.filter(round=round_).values_list("registration_id", flat=True))


@pytest.fixture
def draft():
    """Round 1 of 10 registered players, all checked in, not seated yet."""
    tournament = make_tournament(slug="vakars", avoid_same_club=False)
    entries = make_registrations(tournament, 10)
    return services.round_create(tournament=tournament), entries


class TestGenerationUsesTheAttendanceOnScreen:
    def test_the_attendance_is_saved_with_the_seating(self, draft):
        round_, entries = draft
        absent = entries[0]
        round_generate_seating(round_=round_, seed=1, by=None, present=entries[1:])
        assert absent.pk not in seated(round_)
        assert checked_in(round_) == {entry.pk for entry in entries[1:]}

    def test_a_refused_seating_saves_no_attendance(self, draft):
        round_, entries = draft
        with pytest.raises(services.ServiceError):
            round_generate_seating(round_=round_, seed=1, by=None, present=entries[:2])
        assert checked_in(round_) == {entry.pk for entry in entries}
        assert not seated(round_)

    def test_a_published_round_keeps_its_attendance(self, draft):
        round_, entries = draft
        round_generate_seating(round_=round_, seed=1, by=None)
        services.round_publish(round_=round_, by=None)
        with pytest.raises(services.ServiceError, match="draft"):
            round_generate_seating(
                round_=round_,
                seed=2,
                by=None,
                present=entries[1:],
                confirmation=services.regenerate_confirmation(round_),
            )
        assert seated(round_) == {entry.pk for entry in entries}


class TestPublishingChecksTheAttendance:
    def test_a_player_ticked_after_the_draw_is_present_but_not_seated(self, draft):
        round_, entries = draft
        late = entries[0]
        round_generate_seating(round_=round_, seed=1, by=None, present=entries[1:])
        services.check_in_set(round_=round_, registrations=entries)  # he came after all
        difference = selectors.attendance_difference(round_=round_)
        assert [entry.pk for entry in difference.present_not_seated] == [late.pk]
        assert difference.seated_not_present == []
        with pytest.raises(services.AttendanceMismatchError, match="present but not seated"):
            services.round_publish(round_=round_, by=None)
        round_.refresh_from_db()
        assert round_.status == RoundStatus.DRAFT

    def test_a_player_unticked_on_screen_is_seated_but_not_present(self, draft):
        round_, entries = draft
        round_generate_seating(round_=round_, seed=1, by=None)
        gone = entries[3]
        present = [entry for entry in entries if entry != gone]
        with pytest.raises(services.AttendanceMismatchError) as refused:
            services.round_publish(round_=round_, by=None, present=present)
        assert gone.player.full_name in str(refused.value)
        assert "seated but not checked in" in str(refused.value)
        # Refused: nothing saved, the attendance neither.
        assert checked_in(round_) == {entry.pk for entry in entries}
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.DRAFT

    def test_published_anyway_when_the_organiser_confirms_and_the_log_says_who(self, draft):
        round_, entries = draft
        round_generate_seating(round_=round_, seed=1, by=None)
        gone = entries[3]
        present = [entry for entry in entries if entry != gone]
        services.round_publish(round_=round_, by=None, present=present, attendance_confirmed=True)
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED
        assert checked_in(round_) == {entry.pk for entry in present}
        entry = AuditRecord.objects.get(action=AuditRecord.Action.ROUND_PUBLISHED)
        assert entry.detail["seated_not_present"] == [gone.player.full_name]
        assert entry.detail["present_not_seated"] == []

    def test_no_difference_publishes_as_before(self, draft):
        round_, entries = draft
        round_generate_seating(round_=round_, seed=1, by=None)
        services.round_publish(round_=round_, by=None, present=entries)
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED


@pytest.fixture
def organiser(client):
    client.force_login(make_organiser())
    return client


class TestTheRoundPage:
    def test_the_attendance_and_the_generate_button_are_one_form_list_first(self, organiser, draft):
        _round, entries = draft
        html = organiser.get(reverse("organise:round", args=["vakars", 1])).content.decode()
        form = re.search(r'<form[^>]*id="round-form"[^>]*>(.*?)</form>', html, re.S)
        assert form, "the check-in and seating form"
        inside = form[1]
        assert inside.count('name="registrations"') == len(entries)
        assert inside.rindex('name="registrations"') < inside.index('name="mode"')
        assert re.search(r"<button[^>]*>\s*Generate\s*</button>", inside)

    def test_generate_seats_what_is_ticked_on_screen(self, organiser, draft):
        round_, entries = draft
        absent = entries[0]
        organiser.post(
            reverse("organise:generate", args=["vakars", 1]),
            {
                "attendance": "1",
                "registrations": [entry.pk for entry in entries[1:]],
                "mode": "random",
                "seed": "7",
            },
        )
        assert seated(round_) == {entry.pk for entry in entries[1:]}
        assert absent.pk not in checked_in(round_)

    def test_a_refused_generation_keeps_the_ticks_on_screen(self, organiser, draft):
        round_, entries = draft
        response = organiser.post(
            reverse("organise:generate", args=["vakars", 1]),
            {"attendance": "1", "registrations": [entries[0].pk], "mode": "random", "seed": "7"},
        )
        assert response.status_code == 200
        form = response.context["check_in_form"]
        assert [int(pk) for pk in form["registrations"].value()] == [entries[0].pk]
        assert checked_in(round_) == {entry.pk for entry in entries}

    def test_publish_warns_who_is_present_but_not_seated(self, organiser, draft):
        round_, entries = draft
        late = entries[0]
        round_generate_seating(round_=round_, seed=1, by=None, present=entries[1:])
        services.check_in_set(round_=round_, registrations=entries)
        page = organiser.get(reverse("organise:round", args=["vakars", 1])).content.decode()
        assert "Present but not seated" in page
        assert late.player.full_name in page.split("Present but not seated")[1].split("</")[1]
        all_ticked = {"attendance": "1", "registrations": [entry.pk for entry in entries]}
        refused = organiser.post(reverse("organise:publish", args=["vakars", 1]), all_ticked)
        assert refused.status_code == 200
        assert "present but not seated" in refused.content.decode()
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.DRAFT
        organiser.post(
            reverse("organise:publish", args=["vakars", 1]),
            {**all_ticked, "attendance_confirmed": "on"},
        )
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED

    def test_publish_with_a_player_unticked_on_screen(self, organiser, draft):
        round_, entries = draft
        round_generate_seating(round_=round_, seed=1, by=None)
        gone = entries[2]
        response = organiser.post(
            reverse("organise:publish", args=["vakars", 1]),
            {"attendance": "1", "registrations": [entry.pk for entry in entries if entry != gone]},
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert gone.player.full_name in html
        assert 'name="attendance_confirmed"' in html
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.DRAFT
        assert gone.pk in checked_in(round_)  # nothing saved
