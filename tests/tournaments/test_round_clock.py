"""The round clock of a timed round: its facts (tournaments/round_clock.py), the services that
start, reset and call it (who may, when, what they audit), and the pages that offer them."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring import services as scoring_services
from tests.clock import START, fix_the_clock
from tests.factories import make_organiser, make_published_round, make_tournament, make_user
from tournaments import services
from tournaments.models import AuditRecord, Round, RoundStatus
from tournaments.round_clock import clock_text, round_clock, time_is_up
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    return fix_the_clock(monkeypatch)


@pytest.fixture
def timed_round(clock):
    """Round 1 of a tournament with a 50-minute limit, published (two tables of 3)."""
    tournament = make_tournament(round_time_limit=50, deals_per_round=6)
    return make_published_round(tournament, players=6)


@pytest.fixture
def organiser():
    return make_organiser()


@pytest.fixture
def chief(timed_round):
    user = make_user(username="galvenais")
    timed_round.tournament.chief_referees.add(user)
    return user


def fresh(round_: Round) -> Round:
    return Round.objects.select_related("tournament").get(pk=round_.pk)


class TestTheFacts:
    def test_a_round_of_a_tournament_without_a_limit_is_not_timed(self, clock):
        round_ = make_published_round(make_tournament(), players=6)
        facts = round_clock(fresh(round_))
        assert not facts.is_timed and not facts.can_start and not facts.is_up

    def test_before_the_start_the_tournaments_limit_is_shown(self, timed_round):
        facts = round_clock(fresh(timed_round))
        assert (facts.is_timed, facts.is_started, facts.limit_minutes) == (True, False, 50)
        assert facts.can_start and not facts.can_call and not facts.can_reset
        assert facts.remaining_seconds == 0 and not facts.is_up

    def test_time_left_counts_down_and_is_up_at_the_limit(self, timed_round, organiser, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        round_ = fresh(timed_round)
        assert round_clock(round_).remaining_seconds == 50 * 60
        clock.advance(minutes=49, seconds=59.5)
        facts = round_clock(round_)
        assert (facts.is_running, facts.remaining_seconds, facts.remaining_text) == (
            True,
            1,  # rounded up: 0 only once time is up
            "00:01",
        )
        clock.advance(seconds=0.5)
        facts = round_clock(round_)
        assert facts.is_up and not facts.is_running and facts.remaining_seconds == 0
        assert facts.ended_at == START + datetime.timedelta(minutes=50)
        assert time_is_up(round_)

    def test_called_time_is_up_at_once(self, timed_round, organiser, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        clock.advance(minutes=10)
        services.round_time_call(round_=timed_round, by=organiser)
        facts = round_clock(fresh(timed_round))
        assert facts.is_up and facts.was_called
        assert facts.ended_at == START + datetime.timedelta(minutes=10)

    @pytest.mark.parametrize(
        ("seconds", "text"), [(0, "00:00"), (59, "00:59"), (3000, "50:00"), (3725, "1:02:05")]
    )
    def test_the_time_left_reads_like_a_clock(self, seconds, text):
        assert clock_text(seconds) == text


class TestStart:
    def test_the_organiser_starts_it_with_the_tournaments_limit(self, timed_round, organiser):
        services.round_clock_start(round_=timed_round, by=organiser, ip_address="10.0.0.1")
        round_ = fresh(timed_round)
        assert (round_.clock_started_at, round_.time_limit, round_.time_called_at) == (
            START,
            50,
            None,
        )
        audit = AuditRecord.objects.get(action=AuditRecord.Action.CLOCK_STARTED)
        assert (audit.user, audit.ip_address, audit.tournament_id) == (
            organiser,
            "10.0.0.1",
            timed_round.tournament_id,
        )
        assert audit.detail == {
            "round": 1,
            "time_limit": 50,
            "started_at": START.isoformat(),
            "ends_at": (START + datetime.timedelta(minutes=50)).isoformat(),
        }

    def test_a_later_change_of_the_limit_leaves_the_running_clock_alone(
        self, timed_round, organiser
    ):
        services.round_clock_start(round_=timed_round, by=organiser)
        services.tournament_settings_save(
            tournament=timed_round.tournament, values={"round_time_limit": 20}, by=organiser
        )
        assert round_clock(fresh(timed_round)).limit_minutes == 50

    def test_the_chief_referee_may_start_it(self, timed_round, chief):
        services.round_clock_start(round_=timed_round, by=chief)
        assert fresh(timed_round).clock_started_at == START

    @pytest.mark.parametrize("who", ["nobody", "a referee", "an organiser elsewhere"])
    def test_nobody_else_may(self, timed_round, who):
        by = {
            "nobody": lambda: None,
            "a referee": lambda: referee_of(timed_round),
            "an organiser elsewhere": lambda: organiser_of(make_tournament()),
        }[who]()
        with pytest.raises(ServiceError, match="only the organisers and the chief referee"):
            services.round_clock_start(round_=timed_round, by=by)
        assert fresh(timed_round).clock_started_at is None
        assert not AuditRecord.objects.filter(action=AuditRecord.Action.CLOCK_STARTED).exists()

    def test_a_running_clock_is_not_started_twice(self, timed_round, organiser, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        clock.advance(minutes=5)
        with pytest.raises(ServiceError, match="already started"):
            services.round_clock_start(round_=timed_round, by=organiser)
        assert fresh(timed_round).clock_started_at == START
        assert AuditRecord.objects.filter(action=AuditRecord.Action.CLOCK_STARTED).count() == 1

    def test_a_tournament_without_a_limit_has_no_clock_to_start(self, organiser, clock):
        round_ = make_published_round(make_tournament(), players=6)
        with pytest.raises(ServiceError, match="no round time limit"):
            services.round_clock_start(round_=round_, by=organiser)
        assert fresh(round_).clock_started_at is None

    def test_not_in_a_draft(self, organiser, clock):
        tournament = make_tournament(round_time_limit=50)
        from tests.factories import make_registrations

        make_registrations(tournament, 6)
        draft = services.round_create(tournament=tournament)
        with pytest.raises(ServiceError, match="draft: the clock runs while"):
            services.round_clock_start(round_=draft, by=organiser)
        assert fresh(draft).clock_started_at is None

    def test_not_in_a_closed_round(self, timed_round, organiser):
        Round.objects.filter(pk=timed_round.pk).update(status=RoundStatus.CLOSED)
        with pytest.raises(ServiceError, match="closed: the clock runs while"):
            services.round_clock_start(round_=timed_round, by=organiser)
        assert fresh(timed_round).clock_started_at is None

    def test_in_play_it_starts(self, timed_round, organiser):
        Round.objects.filter(pk=timed_round.pk).update(status=RoundStatus.IN_PLAY)
        services.round_clock_start(round_=timed_round, by=organiser)
        assert fresh(timed_round).clock_started_at == START


class TestCallTime:
    def test_the_chief_referee_calls_time_early(self, timed_round, organiser, chief, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        clock.advance(minutes=42)
        services.round_time_call(round_=timed_round, by=chief, ip_address="10.0.0.2")
        round_ = fresh(timed_round)
        assert round_.time_called_at == START + datetime.timedelta(minutes=42)
        audit = AuditRecord.objects.get(action=AuditRecord.Action.TIME_CALLED)
        assert (audit.user, audit.ip_address) == (chief, "10.0.0.2")
        assert audit.detail["round"] == 1
        assert audit.detail["time_called_at"] == round_.time_called_at.isoformat()
        assert audit.detail["seconds_left"] == 8 * 60

    def test_not_before_the_clock_starts(self, timed_round, organiser):
        with pytest.raises(ServiceError, match="has not started"):
            services.round_time_call(round_=timed_round, by=organiser)
        assert fresh(timed_round).time_called_at is None

    def test_not_twice(self, timed_round, organiser, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        services.round_time_call(round_=timed_round, by=organiser)
        called_at = fresh(timed_round).time_called_at
        clock.advance(minutes=1)
        with pytest.raises(ServiceError, match="already up"):
            services.round_time_call(round_=timed_round, by=organiser)
        assert fresh(timed_round).time_called_at == called_at

    def test_not_after_the_clock_ran_out(self, timed_round, organiser, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        clock.advance(minutes=51)
        with pytest.raises(ServiceError, match="already up"):
            services.round_time_call(round_=timed_round, by=organiser)
        assert fresh(timed_round).time_called_at is None

    def test_a_table_referee_may_not(self, timed_round, organiser):
        services.round_clock_start(round_=timed_round, by=organiser)
        with pytest.raises(ServiceError, match="only the organisers and the chief referee"):
            services.round_time_call(round_=timed_round, by=referee_of(timed_round))
        assert fresh(timed_round).time_called_at is None


class TestReset:
    def test_a_clock_started_by_mistake_is_back_to_not_started(self, timed_round, organiser, clock):
        services.round_clock_start(round_=timed_round, by=organiser)
        clock.advance(minutes=3)
        scoring_services.round_clock_reset(round_=timed_round, by=organiser, ip_address="10.0.0.3")
        round_ = fresh(timed_round)
        assert (round_.clock_started_at, round_.time_limit, round_.time_called_at) == (
            None,
            None,
            None,
        )
        audit = AuditRecord.objects.get(action=AuditRecord.Action.CLOCK_RESET)
        assert audit.detail["started_at"] == START.isoformat()
        assert audit.detail["round"] == 1 and audit.detail["time_limit"] == 50
        # and it starts again, from the moment of the new start
        services.round_clock_start(round_=timed_round, by=organiser)
        assert fresh(timed_round).clock_started_at == START + datetime.timedelta(minutes=3)

    def test_not_once_time_was_called(self, timed_round, organiser):
        services.round_clock_start(round_=timed_round, by=organiser)
        services.round_time_call(round_=timed_round, by=organiser)
        with pytest.raises(ServiceError, match="time was called"):
            scoring_services.round_clock_reset(round_=timed_round, by=organiser)
        assert fresh(timed_round).clock_started_at == START

    def test_not_a_clock_that_never_started(self, timed_round, organiser):
        with pytest.raises(ServiceError, match="has not started"):
            scoring_services.round_clock_reset(round_=timed_round, by=organiser)
        assert not AuditRecord.objects.filter(action=AuditRecord.Action.CLOCK_RESET).exists()

    def test_not_by_a_table_referee(self, timed_round, organiser):
        services.round_clock_start(round_=timed_round, by=organiser)
        with pytest.raises(ServiceError, match="only the organisers and the chief referee"):
            scoring_services.round_clock_reset(round_=timed_round, by=referee_of(timed_round))
        assert fresh(timed_round).clock_started_at == START


class TestEveryClockWriteInvalidatesThePublicPages:
    def test_start_call_and_reset(self, timed_round, organiser, django_capture_on_commit_callbacks):
        from core.page_cache import tournament_generation

        tournament_id = timed_round.tournament_id
        generations = [tournament_generation(tournament_id)]
        for write in (
            services.round_clock_start,
            scoring_services.round_clock_reset,
            services.round_clock_start,
            services.round_time_call,
        ):
            with django_capture_on_commit_callbacks(execute=True):
                write(round_=timed_round, by=organiser)
            generations.append(tournament_generation(tournament_id))
        assert len(set(generations)) == len(generations)


def referee_of(round_: Round) -> User:
    user = make_user()
    round_.tournament.referees.add(user)
    round_.tables.first().referees.add(user)
    return user


def organiser_of(tournament) -> User:
    user = make_user()
    tournament.organisers.add(user)
    return user


# --- The pages ---------------------------------------------------------------------------------


def clock_url(round_: Round) -> str:
    return reverse("organise:clock", args=[round_.tournament.slug, round_.number])


def round_page(round_: Round) -> str:
    return reverse("organise:round", args=[round_.tournament.slug, round_.number])


class TestThePages:
    def test_the_organiser_starts_calls_and_sees_the_clock_on_the_round_page(
        self, client, timed_round, organiser, clock
    ):
        client.force_login(organiser)
        page = client.get(round_page(timed_round)).content.decode()
        assert "Start the clock: 50 minutes" in page
        assert "Call time" not in page

        response = client.post(clock_url(timed_round), {"action": "start"}, follow=True)
        assert response.redirect_chain[-1][0] == round_page(timed_round) + "#round-clock"
        page = response.content.decode()
        assert "The clock of round 1 is running." in page
        assert 'data-remaining="3000"' in page and "50:00" in page
        assert "Reset the clock" in page and "Call time now" in page
        assert "Start the clock" not in page

        clock.advance(minutes=20)
        page = client.post(clock_url(timed_round), {"action": "call"}, follow=True)
        html = page.content.decode()
        assert "Time is called in round 1" in html
        assert "Time is up" in html and "Time was called at" in html
        assert "Reset the clock" not in html and "Call time now" not in html
        assert fresh(timed_round).time_called_at == START + datetime.timedelta(minutes=20)

    def test_a_refused_action_says_why_and_changes_nothing(self, client, organiser):
        round_ = make_published_round(make_tournament(), players=6)  # no time limit
        client.force_login(organiser)
        page = client.get(round_page(round_)).content.decode()
        assert "not timed: give it a round time limit" in page
        response = client.post(clock_url(round_), {"action": "start"}, follow=True)
        assert "no round time limit" in response.content.decode()
        assert fresh(round_).clock_started_at is None

    def test_an_unknown_action_is_refused_without_a_500(self, client, timed_round, organiser):
        client.force_login(organiser)
        response = client.post(clock_url(timed_round), {"action": "explode"}, follow=True)
        assert response.status_code == 200
        assert "not understood" in response.content.decode()
        assert fresh(timed_round).clock_started_at is None

    def test_the_chief_referee_keeps_the_clock_from_his_dashboard(
        self, client, timed_round, chief, clock
    ):
        client.force_login(chief)
        dashboard = client.get(reverse("organise:dashboard")).content.decode()
        assert "Start the clock: 50 minutes" in dashboard
        response = client.post(clock_url(timed_round), {"action": "start"})
        assert response.url == f"{reverse('organise:dashboard')}#round-{timed_round.pk}"
        clock.advance(minutes=1)
        dashboard = client.get(reverse("organise:dashboard")).content.decode()
        assert "49:00" in dashboard and "Call time now" in dashboard
        client.post(clock_url(timed_round), {"action": "call"})
        assert fresh(timed_round).time_called_at is not None

    def test_a_table_referee_sees_no_clock_buttons_and_is_refused(
        self, client, timed_round, organiser
    ):
        services.round_clock_start(round_=timed_round, by=organiser)
        referee = referee_of(timed_round)
        client.force_login(referee)
        assert "Call time" not in client.get(reverse("organise:dashboard")).content.decode()
        assert client.post(clock_url(timed_round), {"action": "call"}).status_code == 403
        assert fresh(timed_round).time_called_at is None

    def test_the_round_page_links_the_hall_display(self, client, timed_round, organiser):
        client.force_login(organiser)
        page = client.get(round_page(timed_round)).content.decode()
        assert reverse("public:display", args=[timed_round.tournament.slug]) in page


class TestTheAuditLog:
    def test_clock_entries_read_as_words_and_local_times(self, client, timed_round, organiser):
        services.round_clock_start(round_=timed_round, by=organiser)
        services.round_time_call(round_=timed_round, by=organiser)
        client.force_login(organiser)
        url = reverse("organise:audit", args=[timed_round.tournament.slug])
        html = client.get(url).content.decode()
        assert "round clock started" in html and "time called" in html
        for label in ("Time limit (minutes)", "Clock started at", "Time runs out at"):
            assert label in html
        assert "<dt>time limit</dt>" not in html and "<dt>started at</dt>" not in html
        # 10:00 UTC is 12:00 in Riga (the site's time zone), written the reader's way
        assert "5 Dec 2026 12:00" in html
        assert START.isoformat() not in html
