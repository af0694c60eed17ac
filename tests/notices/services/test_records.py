"""A notice is a row of the write's own transaction: undone with it, sent after its commit;
the organiser's announcement is short, and in the audit log."""

import pytest
from django.db import transaction

from notices.models import Notice, NoticeKind
from notices.services import announcement_send, notice_record
from tests.factories import make_organiser, make_registrations, make_tournament, subscribe_phone
from tournaments.models import AuditRecord
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_announcement_reaches_every_subscribed_player(push_service):
    tournament = make_tournament()
    anna, juris, _nobody = make_registrations(tournament, 3)
    phones = [
        subscribe_phone(push_service, anna, language="lv"),
        subscribe_phone(push_service, juris),
    ]
    announcement_send(tournament=tournament, text="  Pusdienas   30 min  ", by=make_organiser())
    for phone in phones:
        (message,) = push_service.messages_for(phone["endpoint"])
        assert message["body"] == "Pusdienas 30 min"
        assert message["title"] == tournament.name
    record = AuditRecord.objects.get(action=AuditRecord.Action.ANNOUNCEMENT_SENT)
    assert record.detail["text"] == "Pusdienas 30 min"


@pytest.mark.parametrize(
    ("text", "refusal"), [("   ", "Write the announcement"), ("x" * 201, "at most 200")]
)
def test_an_empty_or_long_announcement_is_refused_and_nothing_is_sent(push_service, text, refusal):
    tournament = make_tournament()
    subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    with pytest.raises(ServiceError, match=refusal):
        announcement_send(tournament=tournament, text=text, by=make_organiser())
    assert not Notice.objects.exists()
    assert push_service.received == []


def test_a_notice_of_an_undone_write_is_never_sent(push_service):
    tournament = make_tournament()
    subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    with pytest.raises(RuntimeError), transaction.atomic():
        notice_record(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, text="Sākam")
        raise RuntimeError("the write failed after the notice")
    assert not Notice.objects.exists()
    assert push_service.received == []
