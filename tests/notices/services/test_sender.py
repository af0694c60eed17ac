"""Who sends: a thread of the web process woken at the commit (the request never waits for
the push service), or `manage.py send_notices`, which also sends what a stopped process
left."""

import time

import pytest
from django.core.management import call_command
from django.db import transaction

from notices.models import Delivery, DeliveryState, NoticeKind
from notices.services import notice_record, sender
from notices.services.sender import wake_sender
from tests.factories import make_registrations, make_tournament, subscribe_phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_thread_sends_after_the_commit_and_ends_when_idle(push_service, settings):
    settings.NOTICES_SENDER = "thread"
    tournament = make_tournament()
    phone = subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    with transaction.atomic():
        notice_record(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, text="Sākam")
        assert push_service.received == []  # nothing leaves before the commit
    (received,) = push_service.wait_for(1)
    assert received.payload["body"] == "Sākam"
    assert push_service.messages_for(phone["endpoint"]) == [received.payload]
    for _ in range(100):  # nothing pending: the thread ends
        if sender._thread is None:
            break
        time.sleep(0.05)
    assert sender._thread is None
    assert Delivery.objects.get().state == DeliveryState.SENT


def test_the_command_sends_what_a_stopped_process_left(push_service, settings):
    settings.NOTICES_SENDER = "worker"  # nobody sends at the commit
    tournament = make_tournament()
    phone = subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    notice_record(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, text="Sākam")
    assert push_service.received == []
    call_command("send_notices", "--once")
    assert push_service.messages_for(phone["endpoint"])[0]["body"] == "Sākam"
    assert Delivery.objects.get().state == DeliveryState.SENT


def test_inline_sending_happens_at_the_commit(push_service):
    tournament = make_tournament()
    phone = subscribe_phone(push_service, make_registrations(tournament, 1)[0])
    with transaction.atomic():
        notice_record(tournament=tournament, kind=NoticeKind.ANNOUNCEMENT, text="Sākam")
    assert len(push_service.messages_for(phone["endpoint"])) == 1
    wake_sender()  # woken again: nothing is sent twice
    assert len(push_service.received) == 1


def test_a_thread_whose_database_fails_ends_and_leaves_the_work_waiting(monkeypatch):
    """The web process's thread never loops on a failing database: the next wake, or the
    command, takes up what waits."""
    import threading

    def database_gone():
        raise OSError("the database went away")

    monkeypatch.setattr(sender, "notices_work", database_gone)
    finished = threading.Event()

    def run():
        sender.run_sender(stop=threading.Event(), exit_idle=True)
        finished.set()

    threading.Thread(target=run, daemon=True).start()
    assert finished.wait(10)
