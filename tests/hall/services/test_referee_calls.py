"""A table calls the chief referee: one open call a table, a new press only after a minute,
answered by the chief referee; every call and answer audited."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from hall.models import RefereeCall
from hall.selectors import round_referee_calls, table_referee_call
from hall.services.referee_calls import CallTooSoonError, referee_call, referee_call_answer
from tests.factories import make_organiser, make_published_round
from tournaments import services
from tournaments.models import AuditRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return make_published_round().tables.order_by("number").first()


def test_a_call_is_open_until_answered_and_both_are_audited(table):
    call = referee_call(table=table, via_link=True, ip_address="10.0.0.5")
    assert table_referee_call(table=table) == call
    assert round_referee_calls(round_=table.round) == [call]
    chief = make_organiser()

    referee_call_answer(call=call, by=chief, ip_address="10.0.0.6")

    call.refresh_from_db()
    assert call.answered_by == chief and call.answered_at is not None
    assert table_referee_call(table=table) is None
    called, answered = AuditRecord.objects.filter(table=table).order_by("pk")
    assert called.action == AuditRecord.Action.REFEREE_CALLED and called.detail["via_link"]
    assert answered.action == AuditRecord.Action.REFEREE_CALL_ANSWERED and answered.user == chief


def test_a_link_holder_not_signed_in_calls_as_no_account(table):
    referee_call(table=table, by=AnonymousUser(), via_link=True)

    assert AuditRecord.objects.get(table=table).user is None


def test_a_second_press_within_a_minute_is_refused(table):
    referee_call(table=table)
    with pytest.raises(CallTooSoonError):
        referee_call(table=table)
    assert RefereeCall.objects.count() == 1
    assert AuditRecord.objects.filter(action=AuditRecord.Action.REFEREE_CALLED).count() == 1


def test_a_press_after_a_minute_reminds_the_same_call(table):
    call = referee_call(table=table)
    RefereeCall.objects.filter(pk=call.pk).update(
        called_at=timezone.now() - datetime.timedelta(seconds=61)
    )
    again = referee_call(table=table)
    assert again.pk == call.pk and again.reminded_at is not None
    assert RefereeCall.objects.count() == 1


def test_after_the_answer_the_table_may_call_again(table):
    call = referee_call(table=table)
    referee_call_answer(call=call, by=make_organiser())
    referee_call(table=table)
    assert RefereeCall.objects.filter(answered_at__isnull=True).count() == 1
    assert RefereeCall.objects.count() == 2


def test_a_round_not_in_play_takes_no_call(table):
    from tournaments.models import Round, RoundStatus

    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    with pytest.raises(services.ServiceError, match="not in play"):
        referee_call(table=table)
    assert not RefereeCall.objects.exists()


def test_answering_twice_changes_nothing(table):
    call = referee_call(table=table)
    first = referee_call_answer(call=call, by=make_organiser())
    second = referee_call_answer(call=call, by=make_organiser())
    assert second.answered_by == first.answered_by and second.answered_at == first.answered_at
    assert AuditRecord.objects.filter(action=AuditRecord.Action.REFEREE_CALL_ANSWERED).count() == 1
