"""After a season of tournaments: a player, on a phone, finds himself in the season ranking and
sees his ranking points and rating chart; the organiser of the final invites a title holder and
registers the qualifiers in one step."""

import datetime

import pytest
from playwright.sync_api import expect

from demo.synthetic import build_played_tournaments
from ranking import services
from ranking.models import Invitation, Season
from ranking.selectors import player_ranking, season_standings
from ranking.services import QUALIFIERS_REGISTERED
from tests.factories import make_player, make_season, make_tournament, make_user
from tournaments.models import AuditRecord, Player

from .conftest import assert_fits_the_phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_finds_his_season_and_the_organiser_builds_the_final(
    live_server, phone_in, tmp_path
):
    Season.objects.all().delete()
    season = make_season(2026, qualifiers=5)
    build_played_tournaments(players=30, tournaments=3, per_tournament=12, rounds=2, seed=4)
    services.ranking_recompute()
    standing = season_standings(season=season).rows[3]
    me = Player.objects.select_related("club").get(pk=standing.player_id)
    final = make_tournament(
        slug="finals",
        name="Latvijas čempionāta fināls",
        starts_on=datetime.date(2026, 12, 12),
        level="national",
    )
    organiser = make_user(username="rita")
    final.organisers.add(organiser)
    champion = make_player(full_name="Titula Turētāja")

    # The player: the season ranking, his club's players, then his own page.
    page = phone_in("en-GB")
    page.goto(f"{live_server.url}/ranking/")
    page.select_option("select[name=club]", str(me.club_id))
    page.click("form.ranking-filter button[type=submit]")
    page.wait_for_url(f"**/ranking/?*club={me.club_id}*")
    assert_fits_the_phone(page)
    page.click(f"a:has-text('{me.full_name}')")
    page.wait_for_url(f"{live_server.url}/players/{me.pk}/")
    (mine,) = player_ranking(player=me)
    rows = page.locator("table.player-ranking-events tbody tr")
    assert rows.count() == len(mine.events) >= 1
    for row, event in zip(rows.all(), mine.events, strict=True):
        cells = row.locator("td").all_inner_texts()
        assert event.tournament.name in cells[0]
        assert cells[3] == str(event.points)
    assert page.locator(f"text={mine.points} points").count() == 1
    assert page.locator("#rating svg").count() == 1
    assert page.locator("#rating svg polyline.chart-line").count() == 1
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "player.png"), full_page=True)

    # The final's organiser: invite the title holder, then register everyone in one step.
    desk = phone_in("en-GB")
    desk.goto(f"{live_server.url}/organise/")
    desk.fill("#id_username", "rita")
    desk.fill("#id_password", "zole-pass-123")
    desk.click("button[type=submit]")
    desk.wait_for_url(f"{live_server.url}/organise/")
    desk.goto(f"{live_server.url}/ranking/qualification/finals/")
    desk.fill("input[name=q]", "titula")
    desk.click("button:has-text('Find')")
    desk.select_option("#id_player", str(champion.pk))
    desk.fill("#id_reason", "title holder 2025")
    assert desk.locator("input[name=scope][value=final]").is_checked()
    assert_fits_the_phone(desk)
    desk.screenshot(path=str(tmp_path / "invite.png"), full_page=True)
    desk.click("form.invite-form button[type=submit]")
    expect(desk.locator("text=Titula Turētāja is invited.")).to_be_visible()
    assert desk.locator("table.qualifiers >> text=title holder 2025").is_visible()
    invitation = Invitation.objects.get(player=champion)
    assert invitation.tournament == final and invitation.season == season

    desk.click("button:has-text('Register')")
    expect(desk.locator("text=qualifiers registered.")).to_be_visible()
    assert desk.locator("text=Every qualifier is registered.").is_visible()
    assert_fits_the_phone(desk)
    desk.screenshot(path=str(tmp_path / "registered.png"), full_page=True)

    registered = set(final.registrations.values_list("player_id", flat=True))
    ranked = {row.player_id for row in season_standings(season=season).rows if row.rank <= 5}
    assert registered == ranked | {champion.pk}
    assert me.pk in registered
    audit = AuditRecord.objects.get(tournament=final, action=QUALIFIERS_REGISTERED)
    assert audit.user == organiser and "Titula Turētāja" in audit.detail["players"]
    assert AuditRecord.objects.filter(
        tournament=final, action=AuditRecord.Action.RANKING_CHANGED, user=organiser
    ).exists()
