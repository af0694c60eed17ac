"""Registration online: the list while places are left, then the waiting list; the same
person never twice; the organiser accepts (an entry like any other), moves and refuses."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from signups.models import SignUp, SignUpStatus
from signups.selectors import signup_lists, signup_open
from signups.services import (
    SignUpRefusedError,
    signup_accept,
    signup_create,
    signup_move,
    signup_refuse,
    signups_accept,
)
from tests.factories import make_club, make_organiser, make_player, make_tournament
from tournaments import services
from tournaments.models import AuditRecord, Club, Player, Registration, Round, RoundStatus

pytestmark = pytest.mark.django_db


def open_tournament(**fields):
    fields.setdefault("signup_until", timezone.now() + datetime.timedelta(days=3))
    return make_tournament(**fields)


def register(tournament, name, **fields) -> SignUp:
    return signup_create(tournament=tournament, full_name=name, **fields)


class TestRegistering:
    def test_players_fill_the_places_then_the_waiting_list(self):
        tournament = open_tournament(signup_places=2)
        first, second, third = (
            register(tournament, name) for name in ("Anna Ozoliņa", "Jānis Bērziņš", "Līga Liepa")
        )
        assert [first.status, second.status, third.status] == ["listed", "listed", "waiting"]
        lists = signup_lists(tournament=tournament)
        assert [line.full_name for line in lists.registered] == ["Anna Ozoliņa", "Jānis Bērziņš"]
        assert lists.place_of(third) == ("waiting", 1)
        assert lists.place_of(second) == ("listed", 2)

    def test_players_the_organiser_registered_take_places_too(self):
        tournament = open_tournament(signup_places=1)
        Registration.objects.create(tournament=tournament, player=make_player())
        assert register(tournament, "Anna Ozoliņa").status == SignUpStatus.WAITING

    def test_a_closed_or_never_opened_registration_refuses(self):
        for until in (None, timezone.now() - datetime.timedelta(minutes=1)):
            tournament = make_tournament(signup_until=until)
            with pytest.raises(SignUpRefusedError, match="closed"):
                register(tournament, "Anna Ozoliņa")
            assert not SignUp.objects.filter(tournament=tournament).exists()

    def test_he_finds_himself_in_the_register_by_name_and_club(self):
        club = make_club(name="Rīgas Zoles klubs")
        player = make_player(full_name="Jānis Bērziņš", club=club)
        signup = register(open_tournament(), "janis berzins", club="RIGAS ZOLES KLUBS")
        assert signup.player == player

    def test_a_licence_finds_him_whatever_the_club(self):
        player = make_player(full_name="Jānis Bērziņš", licence_number="LV-7")
        signup = register(open_tournament(), "Jānis Bērziņš", club="Ogre", licence_number="lv-7")
        assert signup.player == player

    def test_a_licence_of_another_player_is_refused_on_the_licence(self):
        make_player(full_name="Anna Ozoliņa", licence_number="LV-7")
        with pytest.raises(SignUpRefusedError) as refused:
            register(open_tournament(), "Jānis Bērziņš", licence_number="LV-7")
        assert refused.value.field == "licence_number"
        assert "LV-7" in str(refused.value)
        assert "Anna" not in str(refused.value)  # a visitor learns nobody's name from it

    def test_a_second_registration_says_where_he_is(self):
        tournament = open_tournament(signup_places=1)
        register(tournament, "Anna Ozoliņa")
        register(tournament, "Jānis Bērziņš", club="Ogre")
        with pytest.raises(SignUpRefusedError, match="number 1 on the list"):
            register(tournament, "anna ozolina")
        with pytest.raises(SignUpRefusedError, match="number 1 on the waiting list"):
            register(tournament, "Jānis Bērziņš", club="ogre")
        assert SignUp.objects.filter(tournament=tournament).count() == 2

    def test_the_same_register_player_twice_is_refused_whatever_he_types(self):
        make_player(full_name="Jānis Bērziņš", licence_number="LV-7")
        tournament = open_tournament()
        register(tournament, "Jānis Bērziņš", licence_number="LV-7")
        with pytest.raises(SignUpRefusedError, match="has signed up already"):
            register(tournament, "Janis Berzins", club="Cits klubs", licence_number="lv-7")

    def test_a_player_the_organiser_registered_is_told_so(self):
        tournament = open_tournament()
        player = make_player(full_name="Jānis Bērziņš")
        Registration.objects.create(tournament=tournament, player=player)
        with pytest.raises(SignUpRefusedError, match="already registered"):
            register(tournament, "Jānis Bērziņš")

    def test_namesakes_with_different_licences_are_two_players(self):
        tournament = open_tournament()
        register(tournament, "Jānis Bērziņš", licence_number="LV-1")
        assert register(tournament, "Jānis Bērziņš", licence_number="LV-2").status == "listed"

    def test_the_registration_is_audited_without_the_contact(self):
        tournament = open_tournament()
        register(tournament, "Anna Ozoliņa", contact="anna@example.lv", ip_address="10.0.0.9")
        entry = AuditRecord.objects.get(action=AuditRecord.Action.SIGNUP_CREATED)
        assert entry.ip_address == "10.0.0.9"
        assert entry.detail["player"] == "Anna Ozoliņa"
        assert "anna@example.lv" not in str(entry.detail)


class TestTheOrganiser:
    def test_accepting_registers_a_new_player_once_in_the_register(self):
        organiser = make_organiser()
        club = make_club(name="Ogres klubs")
        tournament = open_tournament()
        signup = register(tournament, "Anna Ozoliņa", club="ogres klubs", licence_number="LV-9")
        signup_accept(signup=signup, by=organiser)
        signup.refresh_from_db()
        assert signup.status == SignUpStatus.ACCEPTED
        player = Player.objects.get(full_name="Anna Ozoliņa")
        assert (player.club, player.licence_number) == (club, "LV-9")
        assert signup.registration == Registration.objects.get(tournament=tournament)
        assert signup.registration.player == player
        actions = set(AuditRecord.objects.values_list("action", flat=True))
        assert {"signup.accepted", "entries.registered", "player.saved"} <= actions
        # He keeps his place on the list.
        assert signup_lists(tournament=tournament).place_of(signup) == ("listed", 1)

    def test_accepting_a_register_player_makes_no_new_player(self):
        player = make_player(full_name="Jānis Bērziņš")
        tournament = open_tournament()
        signup = register(tournament, "Jānis Bērziņš")
        signup_accept(signup=signup, by=None)
        assert Player.objects.count() == 1
        assert tournament.registrations.get().player == player

    @pytest.mark.parametrize(
        ("name", "club"),
        [
            ("Jā\u200bnis Bērziņš", "Rīgas Zoles klubs"),  # a zero-width space
            ("Jānis Bēr\u00adziņš", "Rīgas Zoles\u2060 klubs"),  # a soft hyphen, a word joiner
            ("\u202eJānis Bērziņš", "Rīgas\u00a0Zoles klubs"),  # an override, a no-break space
            ("Jānis Bērziņš", "Rīgas Zοles klubs"),  # a Greek ο
            ("Jānis Веrziņš", "Rīgаs Zoles klubs"),  # a Cyrillic В, е and а
        ],
    )
    def test_accepting_a_look_alike_of_a_register_player_makes_no_new_player_or_club(
        self, name, club
    ):
        # Registered before names were cleaned and checked at the door: as it was stored.
        player = make_player(full_name="Jānis Bērziņš", club=make_club(name="Rīgas Zoles klubs"))
        tournament = open_tournament()
        signup = SignUp.objects.create(
            tournament=tournament, full_name=name, club=club, queued_at=timezone.now()
        )
        signup_accept(signup=signup, by=None)
        assert Player.objects.count() == 1 and Club.objects.count() == 1
        assert tournament.registrations.get().player == player

    def test_a_new_player_whose_club_reads_as_a_register_club_joins_that_club(self):
        club = make_club(name="Rīgа")  # a Cyrillic а, stored before names were checked
        signup = register(open_tournament(), "Anna Ozoliņa", club="Rīga")
        signup_accept(signup=signup, by=None)
        assert Player.objects.get().club == club and Club.objects.count() == 1

    def test_a_move_goes_to_the_end_of_the_other_list(self):
        tournament = open_tournament(signup_places=1)
        anna, _janis, liga = (register(tournament, name) for name in ("Anna", "Jānis", "Līga"))
        signup_move(signup=anna, to="waiting", by=None)
        lists = signup_lists(tournament=tournament)
        assert [line.full_name for line in lists.waiting] == ["Jānis", "Līga", "Anna"]
        signup_move(signup=liga, to="listed", by=None)
        lists = signup_lists(tournament=tournament)
        assert [line.full_name for line in lists.registered] == ["Līga"]
        assert AuditRecord.objects.filter(action="signup.moved").count() == 2
        with pytest.raises(services.ServiceError):
            signup_move(signup=liga, to="listed", by=None)

    def test_a_refusal_frees_a_place_the_first_waiting_does_not_take_alone(self):
        tournament = open_tournament(signup_places=1)
        anna, janis = register(tournament, "Anna"), register(tournament, "Jānis")
        signup_refuse(signup=anna, by=None)
        lists = signup_lists(tournament=tournament)
        assert lists.free_places == 1
        assert lists.place_of(janis) == ("waiting", 1)
        assert AuditRecord.objects.filter(action="signup.refused").exists()
        # Refused, he is on no list: registering again is allowed.
        assert register(tournament, "Anna").status == SignUpStatus.LISTED

    def test_an_accepted_or_refused_registration_changes_no_more(self):
        tournament = open_tournament()
        signup = register(tournament, "Anna")
        signup_refuse(signup=signup, by=None)
        for write in (signup_accept, signup_refuse):
            with pytest.raises(services.ServiceError, match="nothing was changed"):
                write(signup=signup, by=None)
        assert not Registration.objects.exists()


def rounds_played(tournament, count: int, *, status: str = RoundStatus.CLOSED) -> None:
    """Rounds 1..count of the tournament, the last of them `status`, the others closed."""
    for number in range(1, count + 1):
        Round.objects.create(
            tournament=tournament,
            number=number,
            status=status if number == count else RoundStatus.CLOSED,
        )


class TestOnceTheTournamentHasStarted:
    def test_signing_up_closes_when_round_one_is_published(self):
        tournament = open_tournament()
        rounds_played(tournament, 1, status=RoundStatus.PUBLISHED)
        assert not signup_open(tournament)
        with pytest.raises(SignUpRefusedError, match="closed"):
            register(tournament, "Anna Ozoliņa")
        assert not SignUp.objects.exists()

    def test_a_finished_tournament_takes_no_one_even_with_late_signups(self):
        tournament = open_tournament(rounds_planned=3, signup_late_until_round=3)
        rounds_played(tournament, 3)
        assert not signup_open(tournament)
        with pytest.raises(SignUpRefusedError, match="closed"):
            register(tournament, "Anna Ozoliņa")
        assert not SignUp.objects.exists()

    def test_late_signups_stay_open_until_the_round_the_organiser_names_is_published(self):
        tournament = open_tournament(rounds_planned=5, signup_late_until_round=3)
        rounds_played(tournament, 1, status=RoundStatus.IN_PLAY)
        anna = register(tournament, "Anna Ozoliņa")
        signup_accept(signup=anna, by=None)
        anna.refresh_from_db()
        assert anna.registration.first_round == 2  # as a late registration: the next round
        Round.objects.filter(tournament=tournament).update(status=RoundStatus.CLOSED)
        Round.objects.create(tournament=tournament, number=2, status=RoundStatus.CLOSED)
        Round.objects.create(tournament=tournament, number=3, status=RoundStatus.DRAFT)
        assert signup_open(tournament)  # round 3 is prepared, not yet published
        Round.objects.filter(tournament=tournament, number=3).update(status=RoundStatus.PUBLISHED)
        assert not signup_open(tournament)
        with pytest.raises(SignUpRefusedError, match="closed"):
            register(tournament, "Jānis Bērziņš")

    def test_a_signup_left_waiting_is_not_accepted_into_a_finished_tournament(self):
        tournament = open_tournament(rounds_planned=2)
        anna = register(tournament, "Anna Ozoliņa")
        rounds_played(tournament, 2)
        with pytest.raises(services.ServiceError, match="no round left"):
            signup_accept(signup=anna, by=None)
        anna.refresh_from_db()
        assert anna.status == SignUpStatus.LISTED
        assert not Registration.objects.exists()

    def test_the_organiser_still_accepts_a_signup_left_after_round_one_from_the_next_round(self):
        tournament = open_tournament(rounds_planned=4)
        anna = register(tournament, "Anna Ozoliņa")
        rounds_played(tournament, 1)
        signup_accept(signup=anna, by=None)
        assert tournament.registrations.get().first_round == 2


def test_a_withdrawn_player_frees_his_place():
    tournament = open_tournament(signup_places=1)
    entry = Registration.objects.create(tournament=tournament, player=make_player())
    services.registration_withdraw(registration=entry, after_round=0, by=None)
    assert register(tournament, "Anna Ozoliņa").status == SignUpStatus.LISTED


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers: this run is on SQLite"
)
@pytest.mark.django_db(transaction=True)
def test_players_registering_at_once_take_no_more_places_than_there_are():
    """Six connections register six players for two places at the same moment: two are
    listed, four wait (the tournament's row decides them one after the other)."""
    tournament = open_tournament(signup_places=2)
    workers = 6
    start = threading.Barrier(workers)

    def worker(number: int) -> None:
        try:
            start.wait()
            register(tournament, f"Spēlētājs {number}a")
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(number,)) for number in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(SignUp.objects.values_list("status", flat=True))
    assert statuses == ["listed"] * 2 + ["waiting"] * 4


class TestAcceptingTogether:
    def test_the_first_n_on_the_list_are_accepted_in_its_order_in_one_step(self):
        organiser = make_organiser()
        tournament = open_tournament()
        names = ["Anna", "Berta", "Cilda", "Dace", "Elza"]
        signups = [register(tournament, name) for name in names]
        signup_move(signup=signups[0], to="waiting", by=None)  # off the list

        accepted = signups_accept(tournament=tournament, count=3, by=organiser)

        assert [signup.full_name for signup in accepted] == ["Berta", "Cilda", "Dace"]
        statuses = dict(SignUp.objects.values_list("full_name", "status"))
        assert statuses == {
            "Anna": SignUpStatus.WAITING,
            "Berta": SignUpStatus.ACCEPTED,
            "Cilda": SignUpStatus.ACCEPTED,
            "Dace": SignUpStatus.ACCEPTED,
            "Elza": SignUpStatus.LISTED,
        }
        entries = tournament.registrations.order_by("player__full_name")
        assert [entry.player.full_name for entry in entries] == ["Berta", "Cilda", "Dace"]
        assert all(entry.first_round == 1 for entry in entries)
        # One entry in the audit log for the acceptance, one for the registrations.
        (entry,) = AuditRecord.objects.filter(action=AuditRecord.Action.SIGNUP_ACCEPTED)
        assert entry.user == organiser
        assert entry.detail["players"] == ["Berta", "Cilda", "Dace"]
        (registered,) = AuditRecord.objects.filter(action=AuditRecord.Action.REGISTRATIONS_CREATED)
        assert registered.detail["players"] == ["Berta", "Cilda", "Dace"]

    def test_accepting_beyond_the_places_is_refused_and_nothing_is_written(self):
        tournament = open_tournament(signup_places=3)
        for name in ("Anna", "Berta", "Cilda"):
            register(tournament, name)
        Registration.objects.create(tournament=tournament, player=make_player())  # by hand
        before = set(AuditRecord.objects.values_list("pk", flat=True))

        with pytest.raises(services.ServiceError) as refused:
            signups_accept(tournament=tournament, count=3, by=None)

        assert str(refused.value) == (
            "3 places and 1 player registered: at most 2 more can be accepted. Accept fewer, "
            "or raise the places in the settings."
        )
        assert tournament.registrations.count() == 1
        assert set(SignUp.objects.values_list("status", flat=True)) == {SignUpStatus.LISTED}
        assert set(AuditRecord.objects.values_list("pk", flat=True)) == before
        assert len(signups_accept(tournament=tournament, count=2, by=None)) == 2

    @pytest.mark.parametrize("count", [0, -1, 4])
    def test_a_count_the_list_does_not_hold_is_refused(self, count):
        tournament = open_tournament()
        for name in ("Anna", "Berta", "Cilda"):
            register(tournament, name)
        with pytest.raises(services.ServiceError, match="3 players are on the list"):
            signups_accept(tournament=tournament, count=count, by=None)
        assert not Registration.objects.exists()

    def test_a_tournament_with_no_round_left_accepts_no_one_together(self):
        tournament = open_tournament(rounds_planned=1)
        register(tournament, "Anna")
        rounds_played(tournament, 1)
        with pytest.raises(services.ServiceError, match="no round left"):
            signups_accept(tournament=tournament, count=1, by=None)
        assert not Registration.objects.exists()

    def test_a_player_new_to_the_register_is_added_once(self):
        make_player(full_name="Berta Bērziņa")
        tournament = open_tournament()
        register(tournament, "Anna Ozoliņa", club="Ogre")
        register(tournament, "berta berzina")
        signups_accept(tournament=tournament, count=2, by=None)
        assert sorted(Player.objects.values_list("full_name", flat=True)) == [
            "Anna Ozoliņa",
            "Berta Bērziņa",
        ]
        assert tournament.registrations.count() == 2
