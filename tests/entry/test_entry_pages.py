"""The table entry page: the private link, the sheet, entering, correcting, penalties, conflicts,
confirmation and unlock, and the organiser's entry links."""

import itertools
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from engine import Pass, PenaltyPule, Play, dealer_for
from engine.rules import Game
from scoring import services
from scoring.models import DealResult, TableResult
from scoring.selectors.progress import round_table_links
from scoring.services import Writer, round_generate_seating
from scoring.sheet.shape import initials, short_name
from scoring.templatetags import kept_sheet_rows
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_published_round,
    make_registrations,
    make_tournament,
    make_user,
    play_round_with,
    seat_keys,
)
from tournaments import services as tournament_services
from tournaments.models import AuditRecord, Round, TableToken

pytestmark = pytest.mark.django_db

keys = (f"service-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.9")
# Every request the page makes, whatever the number of deals: the link with its table, round,
# tournament and confirmation (one query), the seats with the players, every version of the
# entries, the table's open call to the chief referee.
SHEET_QUERIES = 4


def lielais(declarer, points=75, tricks=5):
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def record(table, entry, position):
    return services.deal_record(
        table=table, entry=entry, position=position, client_key=next(keys), writer=REFEREE
    )


def play_deals(table, count, start=0):
    """`count` won Lielais deals, each by the first player who is not dealing."""
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    for index in range(start, start + count):
        dealer = dealer_for(players, first_dealer, index)
        declarer = next(player for player in players if player != dealer)
        record(table, lielais(declarer), index + 1)


def link_of(table):
    return TableToken.objects.get(table=table, revoked_at__isnull=True)


def link_of_any(table):
    return TableToken.objects.filter(table=table).latest("pk")


def url_of(table):
    return reverse("entry:token_sheet", args=[link_of(table).token])


def deal_data(position, client_key, **fields):
    data = {"action": "deal", "deal-position": position, "deal-client_key": client_key}
    data.update({f"deal-{name}": value for name, value in fields.items()})
    return data


@pytest.fixture
def chief():
    return make_user(username="galvenais")


class TestTheLink:
    def test_the_link_shows_the_sheet_with_the_players_names(self, client, table_of_three):
        names = ["Ģirts Šteins", "Ērika Žagare", "Ņikita Ļebedevs"]
        seats = table_of_three.seats.select_related("registration__player").order_by("position")
        for seat, name in zip(seats, names, strict=True):
            seat.registration.player.full_name = name
            seat.registration.player.save()
        response = client.get(url_of(table_of_three))
        assert response.status_code == 200
        page = response.content.decode()
        for name in names:
            assert name in page
        for short in (">ĢŠ<", ">ĒŽ<", ">ŅĻ<"):  # the column headings on a phone
            assert short in page
        assert table_of_three.round.tournament.name in page
        assert 'class="table-scroll' in page  # the sheet scrolls sideways inside its wrapper
        sheet = response.context["sheet"]
        assert [player.name for player in sheet.players] == names
        assert (sheet.next_deal_number, sheet.deals_per_round) == (1, 24)
        assert response.context["offered"].deal_form is not None

    def test_short_names_tell_the_players_apart(self, client, table_of_three):
        assert short_name("Jānis Bērziņš") == "Jānis B."
        assert short_name("Anna") == "Anna"
        names = ["Jānis Bērziņš", "Jānis Bērziņš-Ozols", "Līga Liepiņa"]
        seats = table_of_three.seats.select_related("registration__player").order_by("position")
        for seat, name in zip(seats, names, strict=True):
            seat.registration.player.full_name = name
            seat.registration.player.save()
        players = client.get(url_of(table_of_three)).context["sheet"].players
        assert [player.short_name for player in players] == [*names[:2], "Līga L."]

    def test_on_a_phone_initials_head_the_columns_and_seats_tell_twins_apart(
        self, client, table_of_four
    ):
        assert initials("Konstantīns Šķēle-Vītoliņš") == "KŠ"
        assert initials("ēriks bērziņš") == "ĒB"
        names = ["Jānis Bērziņš", "Ģirts Šteins", "Juris Balodis", "Ņikita Ļebedevs"]
        seats = table_of_four.seats.select_related("registration__player").order_by("position")
        for seat, name in zip(seats, names, strict=True):
            seat.registration.player.full_name = name
            seat.registration.player.save()
        response = client.get(url_of(table_of_four))
        players = response.context["sheet"].players
        assert [player.initials for player in players] == ["JB 1", "ĢŠ", "JB 3", "ŅĻ"]
        page = response.content.decode()
        assert '<abbr class="entry-name-short" title="Ņikita Ļebedevs">ŅĻ</abbr>' in page

    def test_the_sheet_shows_scores_running_totals_pules_and_the_dealer(
        self, client, table_of_three
    ):
        a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)  # B +2
        record(table_of_three, Pass(), 2)  # a common pule
        record(table_of_three, lielais(a, points=40, tricks=3), 3)  # lost: a personal pule
        sheet = client.get(url_of(table_of_three)).context["sheet"]
        first, second, third = sheet.rows
        assert [cell.score for cell in first.cells] == [-1, 2, -1]
        assert [cell.total for cell in third.cells] == [-5, 4, 1]  # A lost 2 to each
        first_dealer = seat_keys(table_of_three)[table_of_three.first_dealer_position - 1]
        assert first.dealer.key == first_dealer and first.declarer.key == b
        assert (second.common_pules, second.pule_event) == (1, "common_written")
        assert third.pule_event == "personal_written" and third.pule_owner.key == a
        assert [cell.personal_pules for cell in third.cells] == [1, 0, 0]
        assert (sheet.next_deal_number, sheet.totals) == (4, None)

    def test_a_full_sheet_shows_the_settlement_and_the_totals(self, client, table_of_three):
        play_deals(table_of_three, 24)
        response = client.get(url_of(table_of_three))
        sheet = response.context["sheet"]
        assert sheet.is_complete and len(sheet.rows) == 24
        assert sum(sheet.totals) == 0
        assert response.context["offered"].deal_form is None
        assert response.context["offered"].confirm_form is not None

    def test_a_sheet_that_no_longer_scores_is_shown_with_the_reason(self, client, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        record(table_of_three, Pass(), 2)
        # The round's stored rule set changed after the deals were entered (only a damaged
        # database can do that: the settings cannot change while the round is played).
        play_round_with(table_of_three.round, all_pass="galdins")
        response = client.get(url_of(table_of_three))
        assert response.status_code == 200
        sheet = response.context["sheet"]
        assert "deal 2: pass is not played under this table's rules" in sheet.error
        assert [row.number for row in sheet.rows] == [None, None]
        assert sheet.rows[0].declarer.key == b and sheet.next_deal_number == 3

    def test_an_unknown_link_is_a_plain_404_and_a_revoked_one_says_it_was_replaced(
        self, client, table_of_three
    ):
        """A link is 32 random bytes: telling its holder that it was replaced tells a guesser
        nothing, and the referee whose link went gets no silent 404."""
        url = url_of(table_of_three)
        unknown = client.get(reverse("entry:token_sheet", args=["no-such-link"]))
        tournament_services.table_token_revoke(table=table_of_three, by=None)
        revoked = client.get(url)
        assert unknown.status_code == 404
        assert "This link was replaced" not in unknown.content.decode()
        assert revoked.status_code == 410
        assert "This link was replaced: ask the organiser for the new one." in (
            revoked.content.decode()
        )

    def test_a_link_of_a_draft_round_explains_that_the_round_is_not_published(self, client):
        tournament = make_tournament()
        make_registrations(tournament, 3)
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        table = round_.tables.get()
        token = tournament_services.table_token_issue(table=table, by=None)
        url = reverse("entry:token_sheet", args=[token.token])
        response = client.get(url)
        assert response.status_code == 200
        assert response.context["sheet"].round_is_draft
        assert response.context["offered"].deal_form is None
        response = client.post(url, deal_data(1, "k", game="pass"))
        assert response.status_code == 409
        assert "Round 1 is not published yet" in response.context["page_error"]
        assert response.context["page_error"] in response.content.decode()
        assert not DealResult.objects.exists()

    def test_the_page_uses_the_same_queries_for_1_and_24_deals(
        self, client, table_of_three, django_assert_max_num_queries
    ):
        other = table_of_three.round.tables.exclude(pk=table_of_three.pk).get()
        play_deals(table_of_three, 1)
        play_deals(other, 24)
        for table in (table_of_three, other):
            url = url_of(table)
            # The first view records when the table was heard from (one statement), and the
            # next views within a few seconds write nothing.
            with django_assert_max_num_queries(SHEET_QUERIES + 1):
                client.get(url)
            with django_assert_max_num_queries(SHEET_QUERIES):
                response = client.get(url)
            assert response.status_code == 200
        assert len(response.context["sheet"].rows) == 24


@pytest.fixture
def rows_rendered(monkeypatch):
    """`rows_rendered(get, *args)`: the response of `get(*args)` and how many rows it rendered
    (the others were taken from the memory of rendered rows)."""
    calls = []
    render_to_string = kept_sheet_rows.render_to_string

    def counted(*args, **kwargs):
        calls.append(1)
        return render_to_string(*args, **kwargs)

    monkeypatch.setattr(kept_sheet_rows, "render_to_string", counted)

    def during(request, *args, **kwargs):
        calls.clear()
        response = request(*args, **kwargs)
        return response, len(calls)

    return during


class TestTheSheetRendersOnlyWhatChanged:
    """The referee's phone reads the sheet again after every deal; the forms
    are written out without Django's widget templates, and only the rows that changed are
    rendered again (the counts are of rows rendered, not of time)."""

    @pytest.fixture(autouse=True)
    def empty_row_memory(self):
        kept_sheet_rows.forget_rows()

    def test_the_forms_use_no_widget_templates(self, client, table_of_four):
        play_round_with(table_of_four.round, all_pass="galdins")
        record(table_of_four, lielais(seat_keys(table_of_four)[1]), 1)
        for path in ("", "?correct=1"):
            response = client.get(url_of(table_of_four) + path)
            widgets = [t.name for t in response.templates if t.name.startswith("django/forms/")]
            assert widgets == [], path

    def test_after_a_deal_only_the_new_row_is_rendered(self, client, table_of_three, rows_rendered):
        play_deals(table_of_three, 5)
        url = url_of(table_of_three)
        assert rows_rendered(client.get, url)[1] == 5  # nothing kept yet
        assert rows_rendered(client.get, url)[1] == 0  # every row as it was
        play_deals(table_of_three, 1, start=5)
        response, rendered = rows_rendered(client.get, url)
        assert rendered == 1
        assert response.content.decode().count('class="entry-row') == 6

    def test_a_correction_renders_the_rows_it_changed_with_their_new_figures(
        self, client, table_of_three, rows_rendered
    ):
        play_deals(table_of_three, 3)
        url = url_of(table_of_three)
        client.get(url)
        row = client.get(url).context["sheet"].rows[0]
        services.deal_correct(
            table=table_of_three,
            position=1,
            entry=lielais(row.declarer.key, points=95, tricks=7),  # more points
            base_version=1,
            client_key=next(keys),
            reason="visi stiķi",
            writer=REFEREE,
        )
        response, rendered = rows_rendered(client.get, url)
        assert rendered == 3  # the running totals moved in each row
        page = response.content.decode()
        assert "95/7" in page and "75/5" in page  # deals 2 and 3 stay 75/5
        first = response.context["sheet"].rows[0]
        for cell in first.cells:
            assert f'<span class="total">{cell.total}</span>' in page

    def test_the_public_sheet_and_the_referees_keep_their_own_rows(
        self, client, short_round, rows_rendered
    ):
        table_of_three = short_round
        play_deals(table_of_three, 3)
        client.get(url_of(table_of_three))
        confirmer = table_of_three.seats.order_by("position").first().registration
        services.table_confirm(
            table=table_of_three,
            writer=REFEREE,
            confirmer=confirmer,
            deals_seen=deals_on_sheet(table_of_three),
        )
        round_ = table_of_three.round
        public, rendered = rows_rendered(
            client.get,
            reverse(
                "public:table",
                args=[round_.tournament.slug, round_.number, table_of_three.number],
            ),
        )
        assert rendered == 3  # no correction links on the public page
        assert "?correct=" not in public.content.decode()


class TestTheBrowserNeverFillsTheForms:
    """Back after saving a deal: the browser must not bring the page back from its memory, nor
    fill the next deal's form with what was typed for the last one (Chromium restores radio
    buttons by position: another declarer)."""

    def test_no_browser_keeps_the_sheet(self, client, table_of_three):
        url = url_of(table_of_three)
        shown = client.get(url)
        refused = client.post(url, deal_data(1, "tap-1", game="lielais"))  # no declarer
        saved = client.post(url, deal_data(1, "tap-2", game="pass"))
        for response in (shown, refused, saved):
            assert "no-store" in response["Cache-Control"], response.status_code

    @pytest.mark.parametrize("path", ["", "?correct=1"])
    def test_every_entry_form_and_input_is_never_filled_by_the_browser(
        self, client, table_of_four, path
    ):
        play_round_with(table_of_four.round, all_pass="galdins")
        record(table_of_four, lielais(seat_keys(table_of_four)[1]), 1)
        page = client.get(url_of(table_of_four) + path).content.decode()
        section = page[page.index('id="entry-form"') :]
        forms = re.findall(r"<form\b[^>]*>", section)
        inputs = [
            tag for tag in re.findall(r"<input\b[^>]*>", section) if 'type="hidden"' not in tag
        ]
        assert forms and len(inputs) >= 10
        for tag in forms + inputs:
            assert 'autocomplete="off"' in tag, tag
        # A page the browser restores from its back-forward cache all the same is reset and
        # read again (static/js/entry-form.js).
        assert 'src="/static/js/entry-form.js"' in page


class TestEnteringDeals:
    def test_entering_a_lielais_stores_it_and_redirects(self, client, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        url = url_of(table_of_three)
        response = client.post(
            url, deal_data(1, "tap-1", game="lielais", declarer=b, points=75, tricks=5)
        )
        assert response.status_code == 302 and response.url == f"{url}#entry-form"
        stored = DealResult.objects.get()
        assert (stored.game, stored.player_id, stored.points, stored.tricks) == (
            "lielais",
            int(b),
            75,
            5,
        )
        assert stored.entered_via_token == link_of(table_of_three)
        assert stored.client_key == "tap-1"
        sheet = client.get(url).context["sheet"]
        assert [cell.total for cell in sheet.rows[0].cells] == [-1, 2, -1]

    @pytest.mark.parametrize(
        ("proxies", "remote", "forwarded", "recorded"),
        [
            (0, "192.0.2.10", "203.0.113.5", "192.0.2.10"),  # no proxy: the header is ignored
            (1, "10.0.0.2", "198.51.100.1, 2001:db8:1:2::10", "2001:db8:1:2::10"),
            (1, "10.0.0.2", "not-an-address", None),
        ],
    )
    def test_the_audit_log_records_the_address_the_outermost_proxy_saw(
        self, client, settings, table_of_three, proxies, remote, forwarded, recorded
    ):
        settings.TRUSTED_PROXIES = proxies
        _a, b, _c = seat_keys(table_of_three)
        client.post(
            url_of(table_of_three),
            deal_data(1, "tap-1", game="lielais", declarer=b, points=75, tricks=5),
            REMOTE_ADDR=remote,
            HTTP_X_FORWARDED_FOR=forwarded,
        )
        entry = AuditRecord.objects.get(action=AuditRecord.Action.DEAL_ENTERED)
        assert entry.ip_address == recorded  # the whole IPv6 address, not its /64

    def test_the_form_carries_the_next_position_and_a_fresh_client_key(
        self, client, table_of_three
    ):
        record(table_of_three, Pass(), 1)
        response = client.get(url_of(table_of_three))
        form = response.context["offered"].deal_form
        assert form["position"].value() == 2
        page = response.content.decode()
        assert f'value="{form.client_key_value}"' in page
        assert len(form.client_key_value) == 36  # a uuid4
        again = client.get(url_of(table_of_three)).context["offered"].deal_form
        assert again.client_key_value != form.client_key_value

    def test_a_bad_deal_shows_the_engines_message_and_stores_nothing(self, client, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        response = client.post(
            url_of(table_of_three),
            deal_data(1, "bad-1", game="lielais", declarer=b, points=100, tricks=8),
        )
        assert response.status_code == 200
        assert "deal 1: points must be 120 when Lielais takes all 8 tricks, got 100" in (
            response.content.decode()
        )
        assert not DealResult.objects.exists()
        # The same submission comes back with its key: nothing was stored under it.
        assert response.context["offered"].deal_form.client_key_value == "bad-1"

    def test_a_refusal_names_the_deal_the_referee_sees_after_a_penalty_pule(
        self, client, table_of_three
    ):
        a, b, _c = seat_keys(table_of_three)
        record(table_of_three, PenaltyPule(a), 1)
        url = url_of(table_of_three)
        assert "Deal 1 of" in client.get(url).content.decode()
        response = client.post(
            url, deal_data(2, "bad-2", game="lielais", declarer=b, points=100, tricks=8)
        )
        page = response.content.decode()
        assert "deal 1: points must be 120 when Lielais takes all 8 tricks" in page
        assert "deal 2:" not in page

    def test_a_refused_penalty_pule_is_named_as_one(self, client, table_of_three):
        a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        for position in (2, 3, 4):
            record(table_of_three, PenaltyPule(a), position)
        response = client.post(
            url_of(table_of_three),
            {
                "action": "penalty",
                "penalty-position": 5,
                "penalty-client_key": "one-too-many",
                "penalty-player": a,
            },
        )
        page = response.content.decode()
        assert "penalty pule after deal 1: player" in page and "deal 5:" not in page

    @pytest.mark.parametrize(
        "fields",
        [
            {"game": "lielais", "declarer": "B", "points": "abc", "tricks": 5},
            {"game": "lielais", "declarer": "999999", "points": 75, "tricks": 5},
            {"game": "lielais", "declarer": "B", "points": 130, "tricks": 5},
            {"game": "lielais", "declarer": "B", "points": 75, "tricks": 9},
            {"game": "lielais", "declarer": "B", "tricks": 5},
            {"game": "lielais", "points": 75, "tricks": 5},
            {"game": "maza_zole", "declarer": "B", "tricks": 0},  # small_zole is off
            {"game": "galdins"},  # all_pass is pule
            {"game": "rubbish"},
            {},
        ],
    )
    def test_bad_or_missing_fields_give_the_form_back_and_store_nothing(
        self, client, table_of_three, fields
    ):
        _a, b, _c = seat_keys(table_of_three)
        fields = {name: b if value == "B" else value for name, value in fields.items()}
        response = client.post(url_of(table_of_three), deal_data(1, "k-1", **fields))
        assert response.status_code == 200
        assert response.context["offered"].deal_form.errors
        assert not DealResult.objects.exists()

    def test_missing_hidden_fields_and_unknown_actions_store_nothing(self, client, table_of_three):
        url = url_of(table_of_three)
        no_key = {"action": "deal", "deal-position": 1, "deal-game": "pass"}
        response = client.post(url, no_key)
        assert response.status_code == 200
        assert "client_key" in response.context["offered"].deal_form.errors
        no_position = {"action": "deal", "deal-client_key": "k", "deal-game": "pass"}
        assert "position" in client.post(url, no_position).context["offered"].deal_form.errors
        assert client.post(url, {"action": "explode"}).status_code == 400
        assert client.post(url, {}).status_code == 400
        assert not DealResult.objects.exists()

    def test_a_double_post_with_the_same_client_key_records_once(self, client, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        url = url_of(table_of_three)
        data = deal_data(1, "double-tap", game="lielais", declarer=b, points=75, tricks=5)
        first = client.post(url, data)
        second = client.post(url, data)
        assert first.status_code == second.status_code == 302
        assert DealResult.objects.count() == 1
        assert AuditRecord.objects.filter(action="deal.entered").count() == 1

    def test_a_stale_position_gets_the_conflict_message(self, client, table_of_three):
        _a, b, c = seat_keys(table_of_three)
        url = url_of(table_of_three)
        client.get(url)  # the page shows deal 1 as next ...
        record(table_of_three, lielais(b), 1)  # ... another device enters it first
        response = client.post(
            url, deal_data(1, "late", game="lielais", declarer=c, points=80, tricks=6)
        )
        assert response.status_code == 409
        assert "Another device entered deal 1: here is the sheet now." in (
            response.content.decode()
        )
        assert DealResult.objects.get().player_id == int(b)
        # The sheet now, with a fresh form for deal 2.
        assert response.context["sheet"].next_deal_number == 2
        assert response.context["offered"].deal_form["position"].value() == 2

    def test_the_mazā_zole_hint_shows_only_when_the_rules_have_mazā_zole(
        self, client, table_of_three
    ):
        url = url_of(table_of_three)
        hint = "Mazā zole needs only the tricks."
        without = client.get(url).content.decode()
        assert hint not in without and "The declarer's card points and tricks." in without
        play_round_with(table_of_three.round, small_zole=True)
        assert hint in client.get(url).content.decode()

    def test_the_sitting_out_dealer_is_not_offered_as_declarer_at_a_table_of_four(
        self, client, table_of_four
    ):
        players = seat_keys(table_of_four)
        url = url_of(table_of_four)
        for deal in range(3):
            dealer = dealer_for(players, players[table_of_four.first_dealer_position - 1], deal)
            response = client.get(url)
            form = response.context["offered"].deal_form
            offered = [key for key, _name in form.fields["declarer"].widget.choices]
            assert sorted(offered) == sorted(set(players) - {dealer})
            assert f'name="deal-declarer" value="{dealer}"' not in response.content.decode()
            declarer = offered[0]
            record(table_of_four, lielais(declarer), deal + 1)
        # A hand-made request naming the dealer is refused by the engine, by name.
        dealer = dealer_for(players, players[table_of_four.first_dealer_position - 1], 3)
        response = client.post(
            url, deal_data(4, "dealer", game="lielais", declarer=dealer, points=75, tricks=5)
        )
        assert "sits it out" in response.content.decode()
        assert DealResult.objects.count() == 3

    def test_game_types_follow_the_rule_set(self, client, table_of_three):
        url = url_of(table_of_three)
        games = lambda: [  # noqa: E731
            key for key, _ in client.get(url).context["offered"].deal_form.fields["game"].choices
        ]
        assert games() == ["lielais", "zole", "pass"]
        play_round_with(table_of_three.round, small_zole=True, all_pass="galdins")
        assert games() == ["lielais", "zole", "maza_zole", "galdins"]
        assert client.get(url).context["offered"].penalty_form is None  # no pules under galdiņš

    def test_galdins_takes_each_playing_players_tricks_and_points(self, client, table_of_four):
        play_round_with(table_of_four.round, all_pass="galdins")
        players = seat_keys(table_of_four)
        dealer = players[table_of_four.first_dealer_position - 1]
        playing = [key for key in players if key != dealer]
        form = client.get(url_of(table_of_four)).context["offered"].deal_form
        assert [player.key for player, _t, _p in form.galdins_fields] == playing
        fields = {"game": "galdins"}
        for key, tricks, points in zip(playing, (4, 2, 2), (60, 30, 30), strict=True):
            fields[f"tricks_{key}"] = tricks
            fields[f"points_{key}"] = points
        response = client.post(url_of(table_of_four), deal_data(1, "g", **fields))
        assert response.status_code == 302
        stored = DealResult.objects.get()
        assert stored.kind == "galdins"
        assert stored.galdins["tricks"] == dict(zip(playing, (4, 2, 2), strict=True))

    def test_the_form_says_who_sits_out_and_the_deal_is_read_by_it(self, client, table_of_four):
        """The deal is read before the sheet is: by the sitting-out dealer its page showed."""
        play_round_with(table_of_four.round, all_pass="galdins")
        players = seat_keys(table_of_four)
        dealer = players[table_of_four.first_dealer_position - 1]
        playing = [key for key in players if key != dealer]
        page = client.get(url_of(table_of_four)).content.decode()
        assert f'name="deal-sits_out" value="{dealer}"' in page
        fields = {"game": "galdins", "sits_out": dealer}
        for key, tricks, points in zip(playing, (4, 2, 2), (60, 30, 30), strict=True):
            fields[f"tricks_{key}"] = tricks
            fields[f"points_{key}"] = points
        response = client.post(url_of(table_of_four), deal_data(1, "g", **fields))
        assert response.status_code == 302
        assert DealResult.objects.get().galdins["points"] == dict(
            zip(playing, (60, 30, 30), strict=True)
        )

    @pytest.mark.parametrize(
        "sits_out", ["", "0", "999999999999999999999", "'; DROP TABLE x; --", "ā" * 300]
    )
    def test_a_sitting_out_naming_no_one_at_the_table_is_read_from_the_sheet(
        self, client, table_of_four, sits_out
    ):
        players = seat_keys(table_of_four)
        dealer = players[table_of_four.first_dealer_position - 1]
        declarer = next(key for key in players if key != dealer)
        deal = {"game": "lielais", "declarer": declarer, "points": 75, "tricks": 5}
        response = client.post(url_of(table_of_four), deal_data(1, "h", sits_out=sits_out, **deal))
        assert response.status_code == 302
        assert DealResult.objects.get().player_id == int(declarer)

    def test_a_sitting_out_with_a_nul_is_refused_and_stores_nothing(self, client, table_of_four):
        players = seat_keys(table_of_four)
        deal = {"game": "lielais", "declarer": players[1], "points": 75, "tricks": 5}
        response = client.post(url_of(table_of_four), deal_data(1, "h", sits_out="\x00", **deal))
        assert response.status_code == 400  # refused before the sheet reads it
        assert "NUL" in response.content.decode()
        assert not DealResult.objects.exists()

    def test_a_page_naming_the_wrong_player_sitting_out_is_refused_and_stores_nothing(
        self, client, table_of_four
    ):
        play_round_with(table_of_four.round, all_pass="galdins")
        players = seat_keys(table_of_four)
        dealer = players[table_of_four.first_dealer_position - 1]
        other = next(key for key in players if key != dealer)
        # A galdiņš read for the wrong three: the dealer's numbers among them.
        fields = {"game": "galdins", "sits_out": other}
        for key, tricks, points in zip(
            [key for key in players if key != other], (4, 2, 2), (60, 30, 30), strict=True
        ):
            fields[f"tricks_{key}"] = tricks
            fields[f"points_{key}"] = points
        response = client.post(url_of(table_of_four), deal_data(1, "g1", **fields))
        assert response.status_code == 200
        assert response.context["offered"].deal_form.non_field_errors()
        # The dealer declaring a Lielais he sits out.
        lielais_by_dealer = {"game": "lielais", "declarer": dealer, "points": 75, "tricks": 5}
        response = client.post(
            url_of(table_of_four), deal_data(1, "g2", sits_out=other, **lielais_by_dealer)
        )
        assert response.status_code == 200
        assert response.context["offered"].deal_form.non_field_errors()
        assert not DealResult.objects.exists()


class TestCorrections:
    def test_a_correction_makes_version_2_and_keeps_version_1(self, client, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        url = url_of(table_of_three)
        response = client.get(url, {"correct": 1})
        form = response.context["offered"].correction_form
        assert (form["points"].value(), form["declarer"].value()) == (75, b)
        assert response.context["offered"].deal_form is None
        data = {
            "action": "correct",
            "fix-position": 1,
            "fix-base_version": 1,
            "fix-client_key": "fix-1",
            "fix-game": "lielais",
            "fix-declarer": b,
            "fix-points": 95,
            "fix-tricks": 6,
        }
        without_reason = client.post(url, data)
        assert without_reason.status_code == 200
        assert "reason" in without_reason.context["offered"].correction_form.errors
        assert DealResult.objects.count() == 1
        response = client.post(url, {**data, "fix-reason": "95, not 75"})
        assert response.status_code == 302
        versions = list(
            DealResult.objects.order_by("version").values_list("version", "points", "reason")
        )
        assert versions == [(1, 75, ""), (2, 95, "95, not 75")]
        row = client.get(url).context["sheet"].rows[0]
        assert (row.version, row.is_corrected, [c.score for c in row.cells]) == (
            2,
            True,
            [-2, 4, -2],
        )

    def test_correcting_an_outdated_version_is_a_conflict(self, client, table_of_three):
        _a, b, c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        services.deal_correct(
            table=table_of_three,
            position=1,
            entry=lielais(c),
            base_version=1,
            client_key="other-device",
            reason="other device",
            writer=REFEREE,
        )
        response = client.post(
            url_of(table_of_three),
            {
                "action": "correct",
                "fix-position": 1,
                "fix-base_version": 1,
                "fix-client_key": "this-device",
                "fix-game": "pass",
                "fix-reason": "it was a pass",
            },
        )
        assert response.status_code == 409
        assert "Another device corrected deal 1 meanwhile" in response.content.decode()
        assert DealResult.objects.count() == 2

    def test_the_last_entry_can_be_removed(self, client, table_of_three):
        _a, b, _c = seat_keys(table_of_three)
        record(table_of_three, lielais(b), 1)
        response = client.post(
            url_of(table_of_three),
            {
                "action": "remove",
                "remove-position": 1,
                "remove-base_version": 1,
                "remove-client_key": "rm",
                "remove-reason": "typed twice",
            },
        )
        assert response.status_code == 302
        assert list(DealResult.objects.values_list("version", "kind")) == [(1, "play"), (2, "void")]
        assert client.get(url_of(table_of_three)).context["sheet"].rows == ()

    def test_a_penalty_pule_is_given_through_the_page(self, client, table_of_three):
        a, _b, _c = seat_keys(table_of_three)
        url = url_of(table_of_three)
        response = client.post(
            url,
            {
                "action": "penalty",
                "penalty-position": 1,
                "penalty-client_key": "late",
                "penalty-player": a,
            },
        )
        assert response.status_code == 302
        stored = DealResult.objects.get()
        assert (stored.kind, stored.player_id) == ("penalty", int(a))
        sheet = client.get(url).context["sheet"]
        assert sheet.rows[0].number is None  # a penalty uses no deal
        assert [cell.personal_pules for cell in sheet.rows[0].cells] == [1, 0, 0]
        assert sheet.next_deal_number == 1
        # The penalty row is corrected with the penalty form.
        response = client.get(url, {"correct": 1})
        assert response.context["offered"].correction_form["player"].value() == a

    def test_a_fourth_penalty_pule_for_one_player_is_refused_with_the_engines_message(
        self, client, table_of_three
    ):
        a, _b, _c = seat_keys(table_of_three)
        url = url_of(table_of_three)

        def give(position):
            return client.post(
                url,
                {
                    "action": "penalty",
                    "penalty-position": position,
                    "penalty-client_key": f"penalty-{position}",
                    "penalty-player": a,
                },
            )

        assert [give(position).status_code for position in (1, 2, 3)] == [302, 302, 302]
        fourth = give(4)

        assert fourth.status_code == 200
        page = fourth.content.decode()
        assert "already has 3 penalty pules: at most 3 per player per round" in page
        assert DealResult.objects.filter(kind="penalty").count() == 3


class TestConfirmation:
    def confirm_data(self, registration_id=None, deals=3):
        data = {"action": "confirm", "confirm-deals": deals}
        if registration_id is not None:
            data["confirm-confirmer"] = registration_id
        return data

    def test_a_seated_player_confirms_through_the_link_and_the_table_locks(
        self, client, short_round
    ):
        play_deals(short_round, 3)
        url = url_of(short_round)
        stranger = short_round.round.tables.exclude(pk=short_round.pk).get().seats.first()
        response = client.post(url, self.confirm_data(stranger.registration_id))
        assert response.status_code == 200 and not TableResult.objects.exists()
        assert client.post(url, self.confirm_data()).status_code == 200
        assert not TableResult.objects.exists()

        confirmer = short_round.seats.order_by("position").last().registration
        response = client.post(url, self.confirm_data(confirmer.pk))
        assert response.status_code == 302
        result = TableResult.objects.get(table=short_round)
        assert result.confirmed_by_registration == confirmer
        page = client.get(url)
        assert page.context["sheet"].is_confirmed
        for name in ("deal_form", "penalty_form", "remove_form", "confirm_form", "unlock_form"):
            assert getattr(page.context["offered"], name) is None, name
        # No entry forms at all: only the call to the chief referee (a confirmed table may
        # still need him).
        actions = re.findall(r'name="action" value="([^"]*)"', page.content.decode())
        assert actions == ["call_referee"]
        assert confirmer.player.full_name in page.content.decode()
        # A locked table takes no more entries.
        response = client.post(url, {**deal_data(4, "after", game="pass")})
        assert response.status_code == 409
        assert DealResult.objects.count() == 3

    def test_a_signed_in_chief_referee_confirms_as_himself(self, client, short_round, chief):
        short_round.round.tournament.chief_referees.add(chief)
        play_deals(short_round, 3)
        client.force_login(chief)
        url = reverse("entry:table_sheet", args=[short_round.pk])
        assert "confirmer" not in client.get(url).context["offered"].confirm_form.fields
        assert client.post(url, self.confirm_data()).status_code == 302
        assert TableResult.objects.get().confirmed_by == chief

    @pytest.mark.parametrize("deals", [None, "", "2", "4", "abc"])
    def test_a_confirmation_without_the_count_of_deals_seen_shows_the_sheet_again(
        self, client, short_round, deals
    ):
        play_deals(short_round, 3)
        url = url_of(short_round)
        confirmer = short_round.seats.order_by("position").last().registration
        data = self.confirm_data(confirmer.pk)
        if deals is None:
            del data["confirm-deals"]
        else:
            data["confirm-deals"] = deals
        response = client.post(url, data)
        assert response.status_code == 409
        assert not TableResult.objects.exists()
        page = response.content.decode()
        assert 'id="page-error"' in page
        assert 'name="confirm-deals" value="3"' in page  # the sheet as it is, to check again
        assert client.post(url, self.confirm_data(confirmer.pk)).status_code == 302

    def test_only_the_chief_referee_unlocks(self, client, short_round, chief):
        tournament = short_round.round.tournament
        tournament.chief_referees.add(chief)
        play_deals(short_round, 3)
        services.table_confirm(
            table=short_round,
            writer=REFEREE,
            confirmer=short_round.seats.first().registration,
            deals_seen=deals_on_sheet(short_round),
        )
        link = url_of(short_round)
        organiser_url = reverse("entry:table_sheet", args=[short_round.pk])
        unlock = {"action": "unlock", "unlock-reason": "deal 2 was wrong"}

        assert client.get(link).context["offered"].unlock_form is None
        assert client.post(link, unlock).status_code == 403
        client.force_login(make_organiser())
        assert client.get(organiser_url).context["offered"].unlock_form is None
        assert client.post(organiser_url, unlock).status_code == 403
        assert TableResult.objects.filter(table=short_round).exists()
        assert not AuditRecord.objects.filter(action="table.unlocked").exists()

        client.force_login(chief)
        assert client.get(organiser_url).context["offered"].unlock_form is not None
        response = client.post(organiser_url, {"action": "unlock", "unlock-reason": "  "})
        assert response.status_code == 200
        assert TableResult.objects.filter(table=short_round).exists()
        response = client.post(organiser_url, unlock)
        assert response.status_code == 302
        assert not TableResult.objects.filter(table=short_round).exists()
        audit = AuditRecord.objects.get(action="table.unlocked")
        assert (audit.user, audit.detail["reason"]) == (chief, "deal 2 was wrong")
        assert client.get(organiser_url).context["offered"].confirm_form is not None


class TestOrganiserDoor:
    def test_organisers_and_the_chief_referee_open_any_table(self, client, table_of_three, chief):
        url = reverse("entry:table_sheet", args=[table_of_three.pk])
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
        client.force_login(make_user())
        assert client.get(url).status_code == 403
        assert client.post(url, deal_data(1, "x", game="pass")).status_code == 403
        table_of_three.round.tournament.chief_referees.add(chief)
        client.force_login(chief)
        assert client.get(url).status_code == 200
        organiser = make_organiser()
        client.force_login(organiser)
        assert client.get(reverse("entry:table_sheet", args=[99999])).status_code == 404
        assert client.post(url, deal_data(1, "org-1", game="pass")).status_code == 302
        stored = DealResult.objects.get()
        assert (stored.entered_by, stored.entered_via_token) == (organiser, None)

    def test_every_post_needs_the_csrf_token(self, table_of_three):
        browser = Client(enforce_csrf_checks=True)
        url = url_of(table_of_three)
        assert browser.post(url, deal_data(1, "k", game="pass")).status_code == 403
        assert not DealResult.objects.exists()
        page = browser.get(url)
        token = page.cookies["csrftoken"].value
        data = {**deal_data(1, "k", game="pass"), "csrfmiddlewaretoken": token}
        assert browser.post(url, data).status_code == 302
        assert DealResult.objects.count() == 1


class TestEntryLinks:
    def test_the_links_partial_lists_each_tables_link_and_progress(
        self, rf, table_of_three, django_assert_max_num_queries
    ):
        round_ = Round.objects.select_related("tournament").get(pk=table_of_three.round_id)
        play_deals(table_of_three, 2)
        record(table_of_three, PenaltyPule(seat_keys(table_of_three)[0]), 3)
        with django_assert_max_num_queries(3):
            links = round_table_links(round_=round_)
        assert [link.table.number for link in links] == [1, 2]
        assert [link.deals_entered for link in links] == [2, 0]
        html = render_to_string(
            "scoring/_table_links.html", {"links": links}, request=rf.get("/organise/")
        )
        assert f"http://testserver/r/{link_of(table_of_three).token}/" in html
        assert reverse("organise:table_link_revoke", args=[table_of_three.pk]) in html

    def test_an_organiser_issues_a_new_link_and_revokes_it(self, client, table_of_three):
        old_url = url_of(table_of_three)
        new_link = reverse("organise:table_link_new", args=[table_of_three.pk])
        revoke = reverse("organise:table_link_revoke", args=[table_of_three.pk])
        client.force_login(make_user())
        assert client.post(new_link).status_code == 403
        assert client.post(revoke).status_code == 403
        assert client.get(old_url).status_code == 200
        client.force_login(make_organiser())
        response = client.post(new_link)
        round_ = table_of_three.round
        assert response.url.startswith(
            reverse("organise:round", args=[round_.tournament.slug, round_.number])
        )
        assert client.get(old_url).status_code == 410  # replaced: its holder is told so
        new_url = url_of(table_of_three)
        assert new_url != old_url and client.get(new_url).status_code == 200
        assert client.get(new_link).status_code == 405
        client.post(revoke, {"confirmed": "yes"})
        assert not TableToken.objects.filter(table=table_of_three, revoked_at=None).exists()

    def test_revoking_a_link_asks_first_on_a_page_of_its_own(self, client, table_of_three):
        """No JavaScript confirm: the list's button opens a page that says what happens, and
        only its form (a POST with `confirmed`) revokes. A bare POST gets the question too."""
        url = url_of(table_of_three)
        revoke = reverse("organise:table_link_revoke", args=[table_of_three.pk])
        client.force_login(make_organiser())
        round_page = client.get(
            reverse(
                "organise:round",
                args=[table_of_three.round.tournament.slug, table_of_three.round.number],
            )
        ).content.decode()
        assert f'href="{revoke}"' in round_page

        for question in (client.get(revoke), client.post(revoke)):
            assert question.status_code == 200
            page = question.content.decode()
            assert "Revoke the entry link of table 1?" in page
            assert f'action="{revoke}"' in page and 'name="confirmed"' in page
            assert client.get(url).status_code == 200  # nothing revoked yet

        done = client.post(revoke, {"confirmed": "yes"})
        assert done.status_code == 302
        assert not TableToken.objects.filter(table=table_of_three, revoked_at=None).exists()
        assert AuditRecord.objects.filter(action=AuditRecord.Action.TOKEN_REVOKED).count() == 1

    def test_the_holder_of_a_replaced_link_is_told_so_in_his_language(self, client, table_of_three):
        url = url_of(table_of_three)
        client.force_login(make_organiser())
        client.post(reverse("organise:table_link_new", args=[table_of_three.pk]))
        client.logout()

        for language, words in (("en", "This link was replaced"), ("lv", "Šī saite ir aizstāta")):
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 410
            page = response.content.decode()
            assert words in page
            assert "URLconf" not in page and "urlpatterns" not in page
        assert client.post(url, deal_data(1, "late", game="pass")).status_code == 410
        assert not DealResult.objects.exists()


def test_an_organiser_closes_a_round_only_when_every_table_is_confirmed(client):
    from django.contrib.messages import get_messages

    from scoring.models import TableResult
    from tests.factories import make_organiser
    from tournaments.models import RoundStatus

    round_ = make_published_round(players=6)
    client.force_login(make_organiser())
    url = f"/organise/t/{round_.tournament.slug}/rounds/1/close/"
    response = client.post(url)
    assert response.status_code == 302
    assert "not confirmed" in " ".join(str(m) for m in get_messages(response.wsgi_request))
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PUBLISHED
    assert not TableResult.objects.exists()


def test_an_organiser_closes_a_round_once_every_table_is_confirmed(client):
    from scoring import services
    from tests.factories import make_organiser
    from tests.tournament_play import REFEREE, next_not_dealing, play_round_at
    from tournaments.models import RoundStatus

    round_ = make_published_round(players=6)
    for table in round_.tables.all():
        play_round_at(table, next_not_dealing)
        services.table_confirm(
            table=table,
            writer=REFEREE,
            confirmer=table.seats.first().registration,
            deals_seen=deals_on_sheet(table),
        )
    client.force_login(make_organiser())
    client.post(f"/organise/t/{round_.tournament.slug}/rounds/1/close/")
    round_.refresh_from_db()
    assert round_.status == RoundStatus.CLOSED
