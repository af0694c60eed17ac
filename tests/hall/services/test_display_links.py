"""The hall display's private link (it shows the check-in code): made, renewed and withdrawn by
the organiser, one working link at most, every change audited without the secret."""

from __future__ import annotations

import json

import pytest

from hall.models import DisplayLink
from hall.selectors import display_link, display_link_by_token
from hall.services.display_links import display_link_issue, display_link_revoke
from tests.factories import make_tournament, make_user
from tournaments.models import AuditRecord

pytestmark = pytest.mark.django_db


def test_a_new_link_stops_the_old_one():
    tournament = make_tournament()
    organiser = make_user()
    first = display_link_issue(tournament=tournament, by=organiser, ip_address="10.0.0.1")

    second = display_link_issue(tournament=tournament, by=organiser)

    assert display_link(tournament) == second
    assert DisplayLink.objects.get(pk=first.pk).revoked_at is not None
    assert len(second.token) >= 40 and second.token != first.token
    issued = AuditRecord.objects.filter(action=AuditRecord.Action.DISPLAY_LINK_ISSUED)
    assert [entry.detail["replaced"] for entry in issued.order_by("pk")] == [False, True]
    assert issued.order_by("pk").first().ip_address == "10.0.0.1"
    assert issued.order_by("pk").first().user == organiser


def test_a_withdrawn_link_leaves_none_and_the_log_never_holds_a_secret():
    tournament = make_tournament()
    link = display_link_issue(tournament=tournament, by=None)

    assert display_link_revoke(tournament=tournament, by=None) == 1
    assert display_link_revoke(tournament=tournament, by=None) == 0

    assert display_link(tournament) is None
    logged = json.dumps(list(AuditRecord.objects.values_list("detail", flat=True)))
    assert link.token not in logged


def test_each_tournament_has_its_own_link():
    one, other = make_tournament(slug="viens"), make_tournament(slug="otrs")
    link = display_link_issue(tournament=one, by=None)

    display_link_issue(tournament=other, by=None)

    assert display_link(one) == link
    assert display_link_by_token(slug="otrs", token=link.token) is None
