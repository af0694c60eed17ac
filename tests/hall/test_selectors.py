"""What the hall reads: the players a check-in search finds, the open calls each account
answers, and the hall display's link by its address."""

import datetime

import pytest
from django.utils import timezone

from hall import selectors
from hall.services.display_links import display_link_issue
from hall.services.referee_calls import referee_call
from tests.factories import (
    make_player,
    make_published_round,
    make_tournament,
    make_user,
)
from tournaments.models import Registration, Round

pytestmark = pytest.mark.django_db


def test_a_search_reads_names_without_their_marks_and_leaves_out_a_withdrawn_player():
    tournament = make_tournament()
    for name, withdrawn_after in (
        ("Jānis Bērziņš", None),
        ("Anna Bērziņa", 0),
        ("Ilze Ozola", None),
    ):
        Registration.objects.create(
            tournament=tournament,
            player=make_player(full_name=name),
            withdrawn_after_round=withdrawn_after,
        )
    round_ = Round.objects.create(tournament=tournament, number=1)

    found = selectors.check_in_matches(
        tournament=tournament, round_=round_, query="berzin", limit=5
    )

    assert [registration.player.full_name for registration in found] == ["Jānis Bērziņš"]
    assert (found[0].check_in, found[0].checked_out) == (None, False)
    assert (
        selectors.check_in_matches(tournament=tournament, round_=round_, query=" ", limit=5) == []
    )


def test_an_account_sees_the_open_calls_of_the_tournaments_it_answers_for():
    round_ = make_published_round()
    table = round_.tables.order_by("number").first()
    organiser, stranger = make_user(), make_user()
    round_.tournament.organisers.add(organiser)
    call = referee_call(table=table)
    call.called_at = timezone.now() - datetime.timedelta(minutes=3, seconds=10)
    call.save()

    (seen,) = selectors.referee_calls_for(user=organiser, is_staff=False)
    assert (seen, seen.waiting_minutes) == (call, 3)
    assert selectors.referee_calls_for(user=stranger, is_staff=False) == []
    assert selectors.referee_calls_for(user=stranger, is_staff=True) == [call]
    assert selectors.table_referee_call(table=table) == call
    assert selectors.round_referee_calls(round_=round_) == [call]


def test_the_display_is_found_by_its_tournament_and_token_only():
    tournament, other = make_tournament(), make_tournament()
    link = display_link_issue(tournament=tournament, by=None)

    assert selectors.display_link_by_token(slug=tournament.slug, token=link.token) == link
    assert selectors.display_link_by_token(slug=other.slug, token=link.token) is None
    assert selectors.display_link_by_token(slug=tournament.slug, token="x" * 65) is None
