"""Roles: who may do what (tournaments.permissions), the pages where organisers give roles and
assign referees to tables, a referee entering his table's deals signed in, the dashboard each role
sees, and signing in and out."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import NoReverseMatch, reverse

from accounts.services.roles import table_referees_set
from scoring.models import DealResult
from tests.factories import make_published_round, make_tournament, make_user
from tournaments import permissions
from tournaments.models import AuditRecord, Role, Table

pytestmark = pytest.mark.django_db


def account(username: str, **fields: object) -> User:
    return User.objects.create(username=username, **fields)  # no password: force_login


@pytest.fixture
def round_():
    return make_published_round(players=6)  # two tables of three


@pytest.fixture
def tournament(round_):
    return round_.tournament


@pytest.fixture
def tables(round_) -> tuple[Table, Table]:
    first, second = round_.tables.select_related("round__tournament").order_by("number")
    return first, second


def pass_deal(client_key: str = "k-1") -> dict[str, object]:
    return {
        "action": "deal",
        "deal-position": 1,
        "deal-client_key": client_key,
        "deal-game": "pass",
    }


class TestChecks:
    def test_staff_organise_every_tournament_and_organisers_their_own(self, tournament):
        other = make_tournament()
        staff, organiser = account("staff", is_staff=True), account("organiser")
        tournament.organisers.add(organiser)
        assert permissions.is_organiser(staff, tournament) and permissions.is_organiser(
            staff, other
        )
        assert permissions.is_organiser(organiser, tournament)
        assert not permissions.is_organiser(organiser, other)
        assert not permissions.is_organiser(AnonymousUser(), tournament)
        assert not permissions.is_organiser(None, tournament)
        assert permissions.is_federation_staff(staff) and not permissions.is_federation_staff(
            organiser
        )

    def test_a_disabled_account_has_no_role(self, tournament):
        gone = account("gone", is_staff=True, is_active=False)
        tournament.organisers.add(gone)
        tournament.chief_referees.add(gone)
        assert not permissions.is_organiser(gone, tournament)
        assert not permissions.is_chief_referee(gone, tournament)
        assert not permissions.has_any_role(gone)

    def test_chief_referees(self, tournament):
        chief, organiser = account("chief"), account("organiser", is_staff=True)
        tournament.chief_referees.add(chief)
        superuser = account("root", is_superuser=True)
        for user, expected in ((chief, True), (superuser, True), (organiser, False)):
            assert permissions.is_chief_referee(user, tournament) is expected
        assert not permissions.is_chief_referee(chief, make_tournament())

    def test_who_writes_a_table(self, tournament, tables):
        this, other = tables
        referee, elsewhere = account("referee"), account("elsewhere")
        this.referees.add(referee)
        other.referees.add(elsewhere)
        chief, organiser = account("chief"), account("organiser")
        tournament.chief_referees.add(chief)
        tournament.organisers.add(organiser)
        for user in (referee, chief, organiser, account("staff", is_staff=True)):
            assert permissions.can_write_table(user, this), user
        for user in (elsewhere, account("plain"), AnonymousUser()):
            assert not permissions.can_write_table(user, this), user

    def test_who_gives_and_takes_each_role(self, tournament):
        organiser, staff = account("organiser"), account("staff", is_staff=True)
        chief, elsewhere = account("chief"), account("chief-elsewhere")
        tournament.organisers.add(organiser)
        tournament.chief_referees.add(chief)
        make_tournament().chief_referees.add(elsewhere)
        # Separation of duties: the chief referee unlocks confirmed tables, so the organisers
        # neither appoint nor remove him; staff and the chief referees themselves do.
        assert permissions.manageable_roles(staff, tournament) == [
            Role.ORGANISER,
            Role.CHIEF_REFEREE,
            Role.REFEREE,
        ]
        assert permissions.manageable_roles(organiser, tournament) == [Role.REFEREE]
        assert permissions.manageable_roles(chief, tournament) == [Role.CHIEF_REFEREE]
        for user in (elsewhere, account("plain"), AnonymousUser()):
            assert permissions.manageable_roles(user, tournament) == []
        assert permissions.can_manage_role(chief, tournament, Role.CHIEF_REFEREE)
        assert not permissions.can_manage_role(organiser, tournament, Role.CHIEF_REFEREE)

    def test_any_role_opens_the_dashboard(self, tournament, tables):
        plain, referee = account("plain"), account("referee")
        tournament.referees.add(referee)
        assert not permissions.has_any_role(plain)
        assert permissions.has_any_role(referee)
        assert not permissions.has_any_role(AnonymousUser())


class TestPeoplePage:
    def url(self, tournament) -> str:
        return reverse("organise:roles", args=[tournament.slug])

    def test_an_organiser_adds_a_referee_by_username(self, client, tournament):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        account("Jānis.Tiesnesis")
        client.force_login(organiser)
        page = client.get(self.url(tournament))
        assert page.status_code == 200
        # An organiser is offered the table referees only: staff appoint organisers, staff and
        # the chief referees appoint chief referees.
        assert [value for value, _label in page.context["form"].fields["role"].choices] == [
            "referee"
        ]
        response = client.post(
            self.url(tournament), {"username": " jānis.tiesnesis ", "role": "referee"}
        )
        assert response.status_code == 302
        assert list(tournament.referees.values_list("username", flat=True)) == ["Jānis.Tiesnesis"]
        assert "Jānis.Tiesnesis" in client.get(self.url(tournament)).content.decode()

    def test_a_username_pasted_with_a_hidden_letter_finds_the_account(self, client, tournament):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        referee = account("ilze")
        client.force_login(organiser)
        client.post(self.url(tournament), {"username": "\u202ail\u200bze\u2060", "role": "referee"})
        assert list(tournament.referees.all()) == [referee]

    def test_unknown_accounts_and_organiser_roles_are_refused_with_a_message(
        self, client, tournament
    ):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        account("someone")
        audited = AuditRecord.objects.count()
        client.force_login(organiser)
        unknown = client.post(self.url(tournament), {"username": "nobody", "role": "referee"})
        assert unknown.status_code == 200
        assert "nobody" in unknown.context["form"].errors["username"][0]
        promote = client.post(self.url(tournament), {"username": "someone", "role": "organiser"})
        assert promote.status_code == 200 and promote.context["form"].errors["role"]
        assert list(tournament.organisers.all()) == [organiser]
        assert not tournament.referees.exists()
        assert AuditRecord.objects.count() == audited

    def test_an_organiser_cannot_remove_another_organiser_but_staff_can(self, client, tournament):
        organiser, colleague = account("organiser"), account("colleague")
        tournament.organisers.add(organiser, colleague)
        remove = reverse("organise:role_remove", args=[tournament.slug])
        body = {"user": colleague.pk, "role": "organiser"}
        client.force_login(organiser)
        assert client.post(remove, body).status_code == 403
        assert tournament.organisers.count() == 2
        client.force_login(account("staff", is_staff=True))
        assert client.post(remove, body).status_code == 302
        assert list(tournament.organisers.all()) == [organiser]

    def test_an_organiser_cannot_make_himself_chief_referee_and_unlock(
        self, client, tournament, tables
    ):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        account("friend")
        client.force_login(organiser)
        for username in ("organiser", "friend"):
            response = client.post(
                self.url(tournament), {"username": username, "role": "chief_referee"}
            )
            assert response.status_code == 200 and response.context["form"].errors["role"]
        assert not tournament.chief_referees.exists()
        assert not permissions.is_chief_referee(organiser, tournament)
        assert not AuditRecord.objects.filter(action="role.granted").exists()

    def test_an_organiser_cannot_remove_the_chief_referee(self, client, tournament):
        organiser, chief = account("organiser"), account("chief")
        tournament.organisers.add(organiser)
        tournament.chief_referees.add(chief)
        client.force_login(organiser)
        html = client.get(self.url(tournament)).content.decode()
        assert f'name="user" value="{chief.pk}"' not in html  # no remove button offered
        # The page says who appoints each role, and which lists are not his to change.
        chiefs = html.split('id="role-chief_referee"')[1].split("</section>")[0]
        referees = html.split('id="role-referee"')[1].split("</section>")[0]
        assert "federation staff and the chief referees, never by the organisers" in chiefs
        assert "You cannot change this list." in chiefs
        assert "Appointed and removed by the organisers." in referees
        assert "You cannot change this list." not in referees
        remove = reverse("organise:role_remove", args=[tournament.slug])
        response = client.post(remove, {"user": chief.pk, "role": "chief_referee"})
        assert response.status_code == 403
        assert list(tournament.chief_referees.all()) == [chief]

    def test_the_chief_referee_appoints_another_and_may_step_down(self, client, tournament):
        chief = account("chief")
        tournament.chief_referees.add(chief)
        account("palīgs")
        client.force_login(chief)
        page = client.get(self.url(tournament))
        assert page.status_code == 200
        assert [value for value, _label in page.context["form"].fields["role"].choices] == [
            "chief_referee"
        ]
        html = page.content.decode()
        # The tournament's organiser pages are not his: no link that answers 403.
        assert f'href="{reverse("organise:detail", args=[tournament.slug])}"' not in html
        added = client.post(self.url(tournament), {"username": "palīgs", "role": "chief_referee"})
        assert added.status_code == 302
        referee = client.post(self.url(tournament), {"username": "palīgs", "role": "referee"})
        assert referee.status_code == 200 and referee.context["form"].errors["role"]
        assert sorted(tournament.chief_referees.values_list("username", flat=True)) == [
            "chief",
            "palīgs",
        ]
        remove = reverse("organise:role_remove", args=[tournament.slug])
        assert client.post(remove, {"user": chief.pk, "role": "chief_referee"}).status_code == 302
        assert list(tournament.chief_referees.values_list("username", flat=True)) == ["palīgs"]
        assert client.get(self.url(tournament)).status_code == 403  # no role left here

    def test_staff_cannot_appoint_themselves_either(self, client, tournament):
        staff = account("staff", is_staff=True)
        client.force_login(staff)
        response = client.post(self.url(tournament), {"username": "staff", "role": "chief_referee"})
        assert response.status_code == 200
        assert "nobody gives a role to himself" in response.content.decode()
        assert not tournament.chief_referees.exists()

    def test_a_chief_referee_of_another_tournament_is_refused(self, client, tournament):
        elsewhere = account("chief-elsewhere")
        make_tournament().chief_referees.add(elsewhere)
        client.force_login(elsewhere)
        assert client.get(self.url(tournament)).status_code == 403
        response = client.post(self.url(tournament), {"username": "x", "role": "chief_referee"})
        assert response.status_code == 403

    def test_a_bad_removal_changes_nothing(self, client, tournament):
        chief = account("chief")
        tournament.chief_referees.add(chief)
        client.force_login(account("staff", is_staff=True))
        remove = reverse("organise:role_remove", args=[tournament.slug])
        for body in ({"user": "x", "role": "referee"}, {"user": chief.pk, "role": "king"}, {}):
            assert client.post(remove, body).status_code == 302
        assert list(tournament.chief_referees.all()) == [chief]


class TestTableReferees:
    def test_an_assigned_referee_enters_his_tables_deals_signed_in(self, client, tables):
        this, other = tables
        tournament = this.round.tournament
        organiser, referee = account("organiser"), account("referee")
        tournament.organisers.add(organiser)
        tournament.referees.add(referee)
        client.force_login(organiser)
        url = reverse("organise:referees", args=[tournament.slug, 1])
        page = client.get(url)
        assert page.status_code == 200
        assert client.post(url, {f"table_{this.pk}": [referee.pk]}).status_code == 302
        assert list(this.referees.all()) == [referee]

        client.force_login(referee)
        dashboard = client.get(reverse("organise:dashboard"))
        assert [table.pk for table in dashboard.context["tables"]] == [this.pk]
        sheet = reverse("entry:table_sheet", args=[this.pk])
        assert client.get(sheet).status_code == 200
        assert client.post(sheet, pass_deal()).status_code == 302
        stored = DealResult.objects.get()
        assert (stored.table, stored.entered_by, stored.entered_via_token) == (this, referee, None)
        # Not the other table, and not the organiser's pages.
        other_sheet = reverse("entry:table_sheet", args=[other.pk])
        assert client.post(other_sheet, pass_deal("k-2")).status_code == 403
        assert client.get(reverse("organise:round", args=[tournament.slug, 1])).status_code == 403
        assert DealResult.objects.count() == 1

    def test_a_referee_not_of_the_tournament_is_not_offered(self, client, tables):
        this, _other = tables
        tournament = this.round.tournament
        client.force_login(account("staff", is_staff=True))
        stranger = account("stranger")
        url = reverse("organise:referees", args=[tournament.slug, 1])
        response = client.post(url, {f"table_{this.pk}": [stranger.pk]})
        assert response.status_code == 200 and response.context["form"].errors
        assert not this.referees.exists()

    def test_the_page_reads_in_a_fixed_number_of_queries(
        self, client, tables, django_assert_max_num_queries
    ):
        tournament = tables[0].round.tournament
        for number in range(5):
            referee = account(f"referee-{number}")
            tournament.referees.add(referee)
            for table in tables:
                table.referees.add(referee)
        client.force_login(account("staff", is_staff=True))
        url = reverse("organise:referees", args=[tournament.slug, 1])
        # session, user, round with its tournament, referees, tables, their referees
        with django_assert_max_num_queries(7):
            assert client.get(url).status_code == 200


class TestDashboard:
    def test_a_non_staff_organiser_sees_his_tournaments_only(self, client, tournament):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        make_tournament(name="Cits turnīrs")
        client.force_login(organiser)
        response = client.get(reverse("organise:dashboard"))
        assert [t.pk for t in response.context["tournaments"]] == [tournament.pk]
        assert reverse("organise:create") not in response.content.decode()
        detail = client.get(reverse("organise:detail", args=[tournament.slug]))
        assert detail.status_code == 200
        assert reverse("organise:audit", args=[tournament.slug]) in detail.content.decode()

    def test_a_chief_referee_sees_every_table_in_play(self, client, tournament, tables):
        chief = account("chief")
        tournament.chief_referees.add(chief)
        client.force_login(chief)
        response = client.get(reverse("organise:dashboard"))
        assert [table.pk for table in response.context["tables"]] == [t.pk for t in tables]
        assert reverse("entry:table_sheet", args=[tables[1].pk]) in response.content.decode()

    def test_a_chief_referee_finds_the_people_page_of_his_tournament(self, client, tournament):
        chief = account("chief")
        tournament.chief_referees.add(chief)
        make_tournament(name="Cits turnīrs")
        client.force_login(chief)
        html = client.get(reverse("organise:dashboard")).content.decode()
        assert reverse("organise:roles", args=[tournament.slug]) in html
        assert "Cits turnīrs" not in html

    def test_an_account_without_a_role_is_told_so(self, client):
        client.force_login(account("plain"))
        assert client.get(reverse("organise:dashboard")).status_code == 403


class TestHeaderLinks:
    """The header offers each account what it may open: a link that answers 403 is a trap."""

    def links(self, client, path="/") -> tuple[bool, bool]:
        html = client.get(path).content.decode()
        return (
            f'href="{reverse("organise:dashboard")}"' in html,
            f'href="{reverse("organise:players")}"' in html,
        )

    def test_the_public_sees_neither_link(self, client):
        assert self.links(client) == (False, False)

    def test_a_referee_sees_his_dashboard_but_not_the_player_register(
        self, client, tournament, tables
    ):
        referee = account("referee")
        tournament.referees.add(referee)
        table_referees_set(table=tables[0], referees=[referee], by=None)
        client.force_login(referee)
        assert self.links(client) == (True, False)

    def test_an_account_without_a_role_sees_no_dashboard(self, client):
        client.force_login(account("plain"))
        assert self.links(client) == (False, False)

    def test_staff_see_both(self, client):
        client.force_login(account("staff", is_staff=True))
        assert self.links(client) == (True, True)

    def test_a_non_staff_organiser_is_not_offered_the_staff_only_player_pages(
        self, client, tournament
    ):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        html = client.get(
            reverse("organise:registrations", args=[tournament.slug])
        ).content.decode()
        assert reverse("organise:player_import") not in html
        assert self.links(client) == (True, False)
        client.force_login(account("staff", is_staff=True))
        html = client.get(
            reverse("organise:registrations", args=[tournament.slug])
        ).content.decode()
        assert reverse("organise:player_import") in html


class TestSignInAndOut:
    def test_sign_in_and_out_through_the_pages(self):
        browser = Client(enforce_csrf_checks=True)
        make_user(username="tiesnesis", is_staff=True)
        page = browser.get(reverse("login"))
        assert page.status_code == 200
        csrf = page.cookies["csrftoken"].value
        response = browser.post(
            reverse("login"),
            {"username": "tiesnesis", "password": "zole-pass-123", "csrfmiddlewaretoken": csrf},
        )
        assert response.status_code == 302
        assert response.url == reverse("organise:dashboard")
        assert browser.get(reverse("organise:dashboard")).status_code == 200
        # Signing out is a form post: a link (GET) cannot sign anyone out.
        assert browser.get(reverse("logout")).status_code == 405
        assert browser.post(reverse("logout")).status_code == 403  # no CSRF token
        home = browser.get(reverse("home"))
        csrf = home.cookies.get("csrftoken", page.cookies["csrftoken"]).value
        assert f'action="{reverse("logout")}"' in home.content.decode()
        response = browser.post(reverse("logout"), {"csrfmiddlewaretoken": csrf})
        assert response.status_code == 302
        after = browser.get(reverse("organise:dashboard"))
        assert after.status_code == 302 and after.url.startswith(reverse("login"))


class TestPasswordPages:
    """No mail is configured, so there is no "forgot your password" by mail: staff set a new
    password (the admin's user page, `manage.py create_organiser --reset`, `changepassword`).
    Signing in, out and changing one's own password stay."""

    RESET_PAGES = (
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/MQ/set-password/",
        "/accounts/reset/done/",
    )

    def test_the_reset_pages_are_gone(self, client):
        make_user(username="tiesnesis")
        for path in self.RESET_PAGES:
            assert client.get(path).status_code == 404, path
            assert client.post(path, {"email": "tiesnesis@example.lv"}).status_code == 404, path
        for name in ("password_reset", "password_reset_done", "password_reset_complete"):
            with pytest.raises(NoReverseMatch):
                reverse(name)

    def test_no_page_links_to_them(self, client):
        staff = make_user(username="tiesnesis", is_staff=True)
        pages = [reverse("login"), "/admin/login/?next=/admin/"]
        html = "".join(client.get(path, follow=True).content.decode() for path in pages)
        client.force_login(staff)
        for path in ("/admin/", reverse("password_change"), reverse("organise:dashboard")):
            html += client.get(path).content.decode()
        assert "password_reset" not in html and "/reset/" not in html
        templates = Path(__file__).resolve().parents[2] / "templates"
        for template in templates.rglob("*.html"):
            assert "password_reset" not in template.read_text(), template

    def test_an_account_changes_its_own_password(self, client):
        user = make_user(username="tiesnesis")
        client.force_login(user)
        assert client.get(reverse("password_change")).status_code == 200
        response = client.post(
            reverse("password_change"),
            {
                "old_password": "zole-pass-123",
                "new_password1": "jauna-parole-456",
                "new_password2": "jauna-parole-456",
            },
        )
        assert response.status_code == 302
        assert response.url == reverse("password_change_done")
        assert client.get(response.url).status_code == 200
        user.refresh_from_db()
        assert user.check_password("jauna-parole-456")


class TestRefereeAccounts:
    """The tournament's people page creates referee accounts: no need for Django's admin."""

    def url(self, tournament) -> str:
        return reverse("organise:roles", args=[tournament.slug])

    def test_an_organiser_creates_a_referee_account_that_signs_in(self, client, tournament):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        response = client.post(
            self.url(tournament),
            {"account-username": "ilze.tiesnese", "account-full_name": "Ilze Kalniņa"},
        )
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
        referee = User.objects.get(username="ilze.tiesnese")
        assert not referee.is_staff and referee.get_full_name() == "Ilze Kalniņa"
        assert list(tournament.referees.all()) == [referee]
        password = response.context["new_account"].password
        assert password in response.content.decode()  # shown once, to hand over
        assert Client().login(username="ilze.tiesnese", password=password)
        entry = AuditRecord.objects.filter(action=AuditRecord.Action.ROLE_GRANTED).get()
        assert entry.tournament == tournament and entry.user == organiser
        assert entry.detail == {
            "role": "referee",
            "username": "ilze.tiesnese",
            "account_created": True,
        }
        assert password not in str(entry.detail)

    @pytest.mark.parametrize(
        ("username", "message"),
        [("organiser", "already taken"), ("", "This field is required"), ("a b", "Enter a valid")],
    )
    def test_a_taken_or_bad_username_is_refused_and_nothing_is_created(
        self, client, tournament, username, message
    ):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        users, audited = User.objects.count(), AuditRecord.objects.count()
        response = client.post(self.url(tournament), {"account-username": username})
        assert response.status_code == 200
        assert message in response.content.decode()
        assert (User.objects.count(), AuditRecord.objects.count()) == (users, audited)

    @pytest.mark.parametrize(
        ("username", "message"),
        [
            ("organiser\u200b", "already taken"),  # a zero-width space
            ("\u202eorganiser", "already taken"),  # a right-to-left override
            ("ilzе", "Username: the word “ilzе” mixes Latin and Cyrillic letters"),  # Cyrillic е
        ],
    )
    def test_a_hidden_or_look_alike_letter_makes_no_second_account(
        self, client, tournament, username, message
    ):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        users = User.objects.count()
        response = client.post(self.url(tournament), {"account-username": username})
        assert message in response.content.decode()
        assert User.objects.count() == users

    def test_the_persons_name_is_stored_cleaned(self, client, tournament):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        client.post(
            self.url(tournament),
            {"account-username": "zwsp", "account-full_name": "Zw\u200bsp \u202eevil"},
        )
        referee = User.objects.get(username="zwsp")
        assert (referee.first_name, referee.last_name) == ("Zwsp", "evil")

    def test_a_persons_name_of_two_alphabets_is_refused(self, client, tournament):
        organiser = account("organiser")
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        response = client.post(
            self.url(tournament), {"account-username": "ilze", "account-full_name": "Ilzе Kalniņa"}
        )
        assert "Name: the word “Ilzе” mixes Latin and Cyrillic letters" in response.content.decode()
        assert not User.objects.filter(username="ilze").exists()

    def test_only_the_tournaments_organisers_create_accounts(self, client, tournament):
        client.force_login(account("stranger"))
        response = client.post(self.url(tournament), {"account-username": "x.tiesnesis"})
        assert response.status_code == 403
        assert not User.objects.filter(username="x.tiesnesis").exists()
