"""Self check-in: a player confirms he is present, by the round's code or his own link, while
the round is a draft not yet seated; the organiser's ticks stay final."""

import pytest

from hall.selectors import confirmed_check_ins, last_check_in_id
from hall.services.check_in import CheckInClosedError, WrongCodeError, self_check_in
from scoring.services import round_generate_seating
from tests.factories import make_registrations, make_tournament
from tournaments import services
from tournaments.models import (
    CHECK_IN_CODE_LENGTH,
    CHECK_IN_CODE_LETTERS,
    AuditRecord,
    CheckIn,
    CheckInMethod,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = make_tournament()
    entries = make_registrations(tournament, 7)
    round_ = services.round_create(tournament=tournament)
    return tournament, entries, round_


def method_of(round_, entry):
    return CheckIn.objects.get(round=round_, registration=entry).method


def test_every_round_has_a_code_easy_to_read_aloud(event):
    _tournament, _entries, round_ = event
    assert len(round_.check_in_code) == CHECK_IN_CODE_LENGTH
    assert set(round_.check_in_code) <= set(CHECK_IN_CODE_LETTERS)
    assert not set("0O1I") & set(CHECK_IN_CODE_LETTERS)


def test_every_registration_has_its_own_secret_link(event):
    _tournament, entries, _round = event
    tokens = {entry.check_in_token for entry in entries}
    assert len(tokens) == len(entries)
    assert all(len(token) >= 30 for token in tokens)


def test_the_code_confirms_a_provisional_check_in_and_is_audited(event):
    _tournament, entries, round_ = event
    assert method_of(round_, entries[0]) == CheckInMethod.ROUND

    self_check_in(
        registration=entries[0],
        method=CheckInMethod.CODE,
        code=f" {round_.check_in_code.lower()[:2]}-{round_.check_in_code[2:]} ",
        ip_address="10.0.0.9",
    )

    assert method_of(round_, entries[0]) == CheckInMethod.CODE
    entry = AuditRecord.objects.get(action=AuditRecord.Action.SELF_CHECK_IN)
    assert entry.ip_address == "10.0.0.9" and entry.user is None
    assert entry.detail["player"] == entries[0].player.full_name
    assert entry.detail["method"] == "code"
    assert [c.registration for c in confirmed_check_ins(round_=round_)] == [entries[0]]


def test_a_wrong_code_is_refused_and_changes_nothing(event):
    _tournament, entries, round_ = event
    wrong = "AAAAA" if round_.check_in_code != "AAAAA" else "CCCCC"
    with pytest.raises(WrongCodeError, match=r"AAAAA|CCCCC"):
        self_check_in(registration=entries[0], method=CheckInMethod.CODE, code=wrong)
    assert method_of(round_, entries[0]) == CheckInMethod.ROUND
    assert not AuditRecord.objects.filter(action=AuditRecord.Action.SELF_CHECK_IN).exists()


def test_the_link_checks_in_a_player_not_yet_checked_in(event):
    tournament, _entries, round_ = event
    late = make_registrations(tournament, 1)[0]  # registered after the round was prepared
    assert not CheckIn.objects.filter(round=round_, registration=late).exists()

    self_check_in(registration=late, method=CheckInMethod.LINK)

    assert method_of(round_, late) == CheckInMethod.LINK


def test_the_organisers_untick_is_final(event):
    _tournament, entries, round_ = event
    services.check_in_set(round_=round_, registrations=entries[1:])  # the first is absent

    with pytest.raises(services.ServiceError, match="absent"):
        self_check_in(registration=entries[0], method=CheckInMethod.LINK)
    assert not CheckIn.objects.filter(round=round_, registration=entries[0]).exists()

    services.check_in_set(round_=round_, registrations=entries)  # he came after all: ticked again
    self_check_in(registration=entries[0], method=CheckInMethod.LINK)
    assert method_of(round_, entries[0]) == CheckInMethod.ORGANISER


def test_the_player_never_changes_the_organisers_tick(event):
    tournament, _entries, round_ = event
    late = make_registrations(tournament, 1)[0]
    services.check_in_set(round_=round_, registrations=tournament.registrations.all())
    ticked = CheckIn.objects.get(round=round_, registration=late)

    again = self_check_in(registration=late, method=CheckInMethod.CODE, code=round_.check_in_code)

    assert (again.method, again.checked_in_at) == (CheckInMethod.ORGANISER, ticked.checked_in_at)
    assert not AuditRecord.objects.filter(action=AuditRecord.Action.SELF_CHECK_IN).exists()


def test_checking_in_twice_keeps_the_first(event):
    _tournament, entries, round_ = event
    first = self_check_in(registration=entries[0], method=CheckInMethod.LINK)
    second = self_check_in(
        registration=entries[0], method=CheckInMethod.CODE, code=round_.check_in_code
    )
    assert (second.method, second.checked_in_at) == (CheckInMethod.LINK, first.checked_in_at)
    assert AuditRecord.objects.filter(action=AuditRecord.Action.SELF_CHECK_IN).count() == 1


def test_check_in_closes_when_the_round_is_seated(event):
    _tournament, entries, round_ = event
    round_generate_seating(round_=round_, mode="random", seed=1, by=None)
    with pytest.raises(CheckInClosedError):
        self_check_in(registration=entries[0], method=CheckInMethod.CODE, code=round_.check_in_code)
    services.round_publish(round_=round_, by=None)
    with pytest.raises(CheckInClosedError):
        self_check_in(registration=entries[0], method=CheckInMethod.LINK)


def test_a_withdrawn_player_cannot_check_in(event):
    tournament, entries, round_ = event
    round_generate_seating(round_=round_, mode="random", seed=1, by=None)
    services.round_publish(round_=round_, by=None)
    services.registration_withdraw(registration=entries[0], after_round=1, by=None)
    round_2 = services.round_create(tournament=tournament)
    with pytest.raises(services.ServiceError, match="does not play round 2"):
        self_check_in(
            registration=entries[0], method=CheckInMethod.CODE, code=round_2.check_in_code
        )


def test_a_self_check_in_made_after_the_organisers_screen_was_shown_stays(event):
    tournament, _entries, round_ = event
    late = make_registrations(tournament, 1)[0]  # not on the round's list yet
    shown = last_check_in_id(round_=round_)
    self_check_in(registration=late, method=CheckInMethod.LINK)

    # The organiser saves the list he was shown, which did not hold the late player.
    services.check_in_set(
        round_=round_, registrations=tournament.registrations.exclude(pk=late.pk), shown_until=shown
    )

    assert method_of(round_, late) == CheckInMethod.LINK
    # Shown to him, the same untick stands.
    services.check_in_set(
        round_=round_,
        registrations=tournament.registrations.exclude(pk=late.pk),
        shown_until=last_check_in_id(round_=round_),
    )
    assert not CheckIn.objects.filter(round=round_, registration=late).exists()
