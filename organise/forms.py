"""The organiser's forms: a tournament and its options, players and clubs, registrations, rounds,
fees and sign-ups. Each checks its input with the rule that lives in the engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import TypeVar

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.engine_text import display_name_key, error_text
from core.name_fields import NameField
from engine import PlaceScheme, SheetError
from engine.names import same_name_key, search_key, search_spellings
from engine.presets import PRESETS
from engine.prizes import parse_prize_shares
from engine.rules import deals_per_round_fits
from tournaments.bounds import (
    MAX_DEALS_PER_ROUND,
    MAX_PLACE_POINTS,
    MAX_ROUND_MINUTES,
    MAX_ROUND_NUMBER,
)
from tournaments.models import Club, FeeCategory, Player, Registration, SeatingMode, Tournament
from tournaments.namesakes import namesake_marks
from tournaments.rule_set import preset_options
from tournaments.selectors import club_named

T = TypeVar("T")

PRESET_CHOICES = (
    ("classic", _("classic: tables of 3, 24 deals, seated swiss (the seeds' rules)")),
    (
        "lzf",
        _("LZF: tables of 4 seated by rank, 28 deals (27 at a table of 3; federation classic)"),
    ),
    ("lzf-rondo", _("LZF rondo: as LZF with mazā zole, rondo galdiņš and pules (elite)")),
)

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
# No database key has more digits than this (2**63 - 1 has 19): a longer "id" is no row's.
ID_MAX_DIGITS = 18


def latvian_choices(
    objects: Iterable[T], *, name: Callable[[T], str], label: Callable[[T], str] | None = None
) -> list[tuple[int, str]]:
    """Choices in the reader's alphabetical order (in Latvian ā after a, č after c ...), which the
    database's collation does not give. The field still validates against its queryset."""
    ordered = sorted(objects, key=lambda obj: display_name_key(name(obj)))
    return [(obj.pk, (label or name)(obj)) for obj in ordered]


class RegistrationChoiceField(forms.ModelMultipleChoiceField):
    """A choice of several rows by id, where an id too large for any database key is an unknown
    choice like any other (Django's `pk__in` query would fail on it: SQLite overflows)."""

    def _check_values(self, value):
        for pk in value if isinstance(value, list | tuple) else ():
            digits = str(pk).strip().lstrip("+-")
            if digits.isdigit() and len(digits) > ID_MAX_DIGITS:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(pk)[:20] + "…"},
                )
        return super()._check_values(value)


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = (
            "name",
            "slug",
            "venue",
            "starts_on",
            "ends_on",
            "level",
            "rounds_planned",
            "deals_per_round",
            "deals_at_three",
            "deals_at_four",
            "round_time_limit",
            "table_size",
            "all_pass",
            "galdins_scoring",
            "small_zole",
            "small_zole_loss",
            "personal_pule_payment",
            "four_table_pass_pules",
            "place_points_three",
            "place_points_four",
            "standings_order",
            "absent_players",
            "first_round_seating",
            "later_rounds_seating",
            "avoid_same_club",
            "teams_enabled",
            "language",
            # Entry fees and prizes.
            "prize_costs_percent",
            "prize_shares",
            # Late and absent players
            "late_wait_minutes",
            "late_out_deal",
            # Registration online.
            "signup_until",
            "signup_places",
            "signup_late_until_round",
        )
        # Choices whose labels are sentences are radios: a closed list on a phone clips its
        # chosen label to the box's width, a radio's label wraps and every choice is read.
        widgets = {
            "table_size": forms.RadioSelect,
            "first_round_seating": forms.RadioSelect,
            "later_rounds_seating": forms.RadioSelect,
            "all_pass": forms.RadioSelect,
            "galdins_scoring": forms.RadioSelect,
            "small_zole_loss": forms.RadioSelect,
            "personal_pule_payment": forms.RadioSelect,
            "four_table_pass_pules": forms.RadioSelect,
            "standings_order": forms.RadioSelect,
            "absent_players": forms.RadioSelect,
            "starts_on": DATE_INPUT,
            "ends_on": DATE_INPUT,
            "signup_until": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }
        # "12,5" in Latvian and Russian: the percentage is read as the page's language writes it.
        localized_fields = ("prize_costs_percent",)
        # The labels are the model fields' verbose names.
        help_texts = {
            "slug": _("Letters, digits and hyphens; filled from the name when left empty."),
            "deals_per_round": _(
                "1 to 60. 24 and 28 are usual; a multiple of the table size lets everyone deal "
                "equally often."
            ),
            "deals_at_three": _(
                "Leave empty for the deals per round. 27 or 24 let everyone at a table of 3 deal "
                "equally often."
            ),
            "deals_at_four": _(
                "Leave empty for the deals per round. 28 or 24 let everyone at a table of 4 deal "
                "equally often."
            ),
            "round_time_limit": _(
                "Leave empty for rounds without a clock. When time is up, the deal under way is "
                "finished and a table may be confirmed with the deals it has played."
            ),
            "galdins_scoring": _("Only when galdiņš is played."),
            "four_table_pass_pules": _("The federation writes two when no pule is open."),
            "place_points_three": _("1st, 2nd, 3rd, separated by commas, e.g. 6,4,2 or 3,2,1."),
            "place_points_four": _(
                "1st to 4th, e.g. 6,4,2,0 or 3,2,1,1. A value for tied places after a "
                "semicolon: 6,4,2,0; 1-4=2 gives 2 each when all four are tied (otherwise tied "
                "players share the mean)."
            ),
            "absent_players": _(
                "Where a player who missed a round ranks, in the standings and in seating by rank."
            ),
            "language": _(
                "Score sheets, seating lists and protocols are printed in this language, "
                "whatever language the pages are read in."
            ),
            "prize_costs_percent": _(
                "The share of the fund (the fees paid) kept for costs, 0 to 100; the rest is "
                "the prizes."
            ),
            "prize_shares": _(
                "Percentages of the prizes for places 1, 2, 3, ... separated by spaces, adding "
                "up to 100, e.g. 40 25 15 10 5 5. Empty: no prize list."
            ),
            # Late and absent players
            "late_wait_minutes": _(
                "Leave empty for no such rule. A player who comes later than this after the "
                "round started gets a personal penalty pule (3 at Nereta)."
            ),
            "late_out_deal": _(
                "Leave empty for no such rule. A player not there by this deal is out of the "
                "round: his table of 4 plays on as a table of 3 (4 at Nereta)."
            ),
            "signup_until": _(
                "Players sign up on the tournament's public page until then (local time). Leave "
                "empty to keep signing up online closed."
            ),
            "signup_places": _(
                "The list of players holds this many; players signing up beyond it go to the "
                "waiting list. Leave empty for no limit."
            ),
            "signup_late_until_round": _(
                "Leave empty to close signing up online when round 1 is published. A round "
                "number: players may still sign up until that round is published; accepted, "
                "they play from the next round. You can register a late player yourself at any "
                "time."
            ),
        }

    preset = forms.ChoiceField(
        label=_("Rule-set preset"),
        required=False,
        choices=[("", "—"), *PRESET_CHOICES],
        help_text=_("Fills in every rule option below; each stays editable."),
    )

    field_order = ("preset",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The preset list fills the options in the browser (static/js/presets.js).
        self.fields["preset"].widget.attrs["data-presets"] = json.dumps(
            {name: preset_options(name) for name in PRESETS}
        )
        self.fields["slug"].required = False
        # Left out of a request, these stay as they are (their defaults when new): the
        # documents' language, and the options added after the form was first published.
        for name in (
            "language",
            "table_size",
            "galdins_scoring",
            "small_zole_loss",
            "four_table_pass_pules",
            "absent_players",
            "prize_costs_percent",
        ):
            self.fields[name].required = False

    def clean_prize_costs_percent(self) -> Decimal:
        value = self.cleaned_data["prize_costs_percent"]
        if value is None:  # left out of the request: as it was
            return self.instance.prize_costs_percent
        if not Decimal(0) <= value <= Decimal(100):
            raise forms.ValidationError(_("a percentage is 0 to 100"))
        return value

    def clean_prize_shares(self) -> str:
        text = self.cleaned_data["prize_shares"]
        try:
            shares = parse_prize_shares(text)
        except SheetError as error:
            raise forms.ValidationError(error_text(error)) from None
        return " ".join(f"{share.normalize():f}" for share in shares)

    def clean_deals_per_round(self) -> int:
        deals = self.cleaned_data["deals_per_round"]
        if not 1 <= deals <= MAX_DEALS_PER_ROUND:
            raise forms.ValidationError(
                _("a round has 1 to %(most)s deals"), params={"most": MAX_DEALS_PER_ROUND}
            )
        return deals

    def _deals_at(self, name: str) -> int | None:
        deals = self.cleaned_data[name]
        if deals is not None and not 1 <= deals <= MAX_DEALS_PER_ROUND:
            raise forms.ValidationError(
                _("a round has 1 to %(most)s deals"), params={"most": MAX_DEALS_PER_ROUND}
            )
        return deals

    def clean_deals_at_three(self) -> int | None:
        return self._deals_at("deals_at_three")

    def clean_deals_at_four(self) -> int | None:
        return self._deals_at("deals_at_four")

    def clean_round_time_limit(self) -> int | None:
        minutes = self.cleaned_data["round_time_limit"]
        if minutes is not None and not 1 <= minutes <= MAX_ROUND_MINUTES:
            raise forms.ValidationError(
                _("a round's time limit is 1 to %(most)s minutes"),
                params={"most": MAX_ROUND_MINUTES},
            )
        return minutes

    # Late and absent players
    def clean_late_wait_minutes(self) -> int | None:
        minutes = self.cleaned_data["late_wait_minutes"]
        if minutes is not None and minutes > MAX_ROUND_MINUTES:
            raise forms.ValidationError(
                _("a late player's waiting time is 0 to %(most)s minutes"),
                params={"most": MAX_ROUND_MINUTES},
            )
        return minutes

    def clean_late_out_deal(self) -> int | None:
        deal = self.cleaned_data["late_out_deal"]
        if deal is not None and not 1 <= deal <= MAX_DEALS_PER_ROUND:
            raise forms.ValidationError(
                _("the deal by which a late player is out is 1 to %(most)s"),
                params={"most": MAX_DEALS_PER_ROUND},
            )
        return deal

    def deals_warning(self) -> str | None:
        """Said, not refused: a deal count that is not a multiple of the table size."""
        size = self.cleaned_data.get("table_size")
        deals = self.cleaned_data.get("deals_at_four" if size == 4 else "deals_at_three")
        deals = deals or self.cleaned_data.get("deals_per_round")
        if deals and size and not deals_per_round_fits(deals, (size,)):
            return _(
                "%(deals)s deals are not a multiple of %(size)s: at a table of %(size)s not "
                "everyone deals equally often."
            ) % {"deals": deals, "size": size}
        return None

    def clean_signup_late_until_round(self) -> int | None:
        number = self.cleaned_data["signup_late_until_round"]
        rounds = self.cleaned_data.get("rounds_planned") or self.instance.rounds_planned
        if number is not None and not 1 <= number <= rounds:
            raise forms.ValidationError(
                _("late sign-ups end by a round from 1 to %(rounds)s (the rounds planned)"),
                params={"rounds": rounds},
            )
        return number

    def clean_rounds_planned(self) -> int:
        rounds = self.cleaned_data["rounds_planned"]
        if not 1 <= rounds <= 30:
            raise forms.ValidationError(_("a tournament has 1 to 30 rounds"))
        return rounds

    def clean(self) -> dict:
        super().clean()
        cleaned = self.cleaned_data
        three, four = cleaned.get("place_points_three"), cleaned.get("place_points_four")
        if three and four:
            try:
                scheme = PlaceScheme.from_text(three, four)
            except SheetError as error:
                self.add_error(
                    "place_points_four" if error.params.get("size") == 4 else "place_points_three",
                    error_text(error),
                )
            else:
                if any(abs(points) > MAX_PLACE_POINTS for points in (*scheme.three, *scheme.four)):
                    self.add_error(
                        "place_points_three",
                        _("place points are whole numbers from -%(most)s to %(most)s")
                        % {"most": MAX_PLACE_POINTS},
                    )
                cleaned["place_points_three"], cleaned["place_points_four"] = scheme.to_text()
        starts, ends = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("the tournament cannot end before it starts"))
        if not cleaned.get("slug") and cleaned.get("name"):
            cleaned["slug"] = slugify(cleaned["name"])[:80] or "tournament"
            if (
                Tournament.objects.filter(slug=cleaned["slug"])
                .exclude(pk=self.instance.pk)
                .exists()
            ):
                self.add_error("slug", _("another tournament has this address: choose one"))
        return cleaned


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("full_name", "club", "licence_number", "is_active")
        field_classes = {"full_name": NameField, "licence_number": NameField}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        field.choices = [
            ("", field.empty_label),
            *latvian_choices(field.queryset, name=lambda club: club.name),
        ]


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_("One player a line: name, club, licence. Commas or semicolons."),
    )
    text = forms.CharField(
        label=_("…or paste the lines"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.order_by("-starts_on", "name"),
        to_field_name="slug",
        required=False,
        label=_("Register them in the tournament"),
        empty_label=_("(only add them to the register)"),
        help_text=_("Every player of the list, new or already in the register, is registered."),
    )

    def raw(self) -> bytes:
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read()
        return self.cleaned_data.get("text", "").encode()

    def clean(self) -> dict:
        super().clean()
        cleaned = self.cleaned_data
        if not cleaned.get("file") and not cleaned.get("text", "").strip():
            raise forms.ValidationError(_("choose a CSV file or paste the lines"))
        return cleaned


class SearchableCheckboxes(forms.CheckboxSelectMultiple):
    """Checkboxes that each carry the search key of what they name (data-search), which the
    page's filter (static/js/filter-list.js) compares with the key of what is typed."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.search_keys: dict[str, str] = {}  # choice value: search key

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        key = self.search_keys.get(str(value))
        if key is not None:
            option["attrs"]["data-search"] = key
        return option


def _labelled(name: str, *details: str | None) -> str:
    """A name and what is known besides it: "Jānis Bērziņš (Rīgas Zoles klubs, LV-1)"."""
    known = ", ".join(detail for detail in details if detail)
    return f"{name} ({known})" if known else name


class RegisterPlayersForm(forms.Form):
    players = RegistrationChoiceField(
        queryset=Player.objects.none(), widget=SearchableCheckboxes, label=_("Players")
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        field.queryset = (
            Player.objects.filter(is_active=True)
            .exclude(registrations__tournament=tournament)
            .select_related("club")
        )
        players = list(field.queryset)
        marks = namesake_marks(players)
        field.choices = latvian_choices(
            players,
            name=lambda player: player.full_name,
            label=lambda player: _labelled(
                player.full_name, player.club.name if player.club else "", marks.get(player.pk)
            ),
        )
        field.widget.search_keys = {
            str(player.pk): search_key(f"{player.full_name} {player.club or ''}")
            for player in players
        }
        # What the page's filter needs to key what is typed as search_key does.
        self.search_spellings = json.dumps(search_spellings(), ensure_ascii=False)


class RegistrationForm(forms.ModelForm):
    class Meta:
        model = Registration
        fields = ("team", "fixed_table", "first_round", "fee_category")
        field_classes = {"team": NameField}
        help_texts = {
            "fixed_table": _("Leave empty unless the player needs a particular table."),
            "fee_category": _("Empty: the first fee category (the standard fee)."),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only this tournament's fee categories.
        self.fields["fee_category"].queryset = self.instance.tournament.fee_categories.all()

    def clean_team(self) -> str:
        """A team that reads as one of the tournament's (another case, a look-alike letter) is
        that team, spelt as it is: the team standings group the registrations by the team's text."""
        team = self.cleaned_data["team"]
        if not team:
            return team
        teams = (
            Registration.objects.filter(tournament=self.instance.tournament_id)
            .exclude(pk=self.instance.pk)
            .exclude(team="")
            .order_by("pk")
            .values_list("team", flat=True)
        )
        key = same_name_key(team)
        return next((known for known in teams if same_name_key(known) == key), team)


class WithdrawForm(forms.Form):
    after_round = forms.IntegerField(
        min_value=0,
        max_value=MAX_ROUND_NUMBER,
        label=_("Withdraws after round"),
        help_text=_("0: before round 1."),
    )


class CheckInForm(forms.Form):
    registrations = RegistrationChoiceField(
        queryset=Registration.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Present"),
    )

    def __init__(self, *args, round_, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["registrations"]
        field.queryset = round_.tournament.registrations.select_related("player")
        registrations = list(field.queryset)
        marks = namesake_marks(registration.player for registration in registrations)
        field.choices = latvian_choices(
            registrations,
            name=lambda registration: registration.player.full_name,
            label=lambda registration: _labelled(
                registration.player.full_name, marks.get(registration.player_id)
            ),
        )


class GenerateSeatingForm(forms.Form):
    mode = forms.ChoiceField(choices=SeatingMode.choices, label=_("Seating"))
    seed = forms.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        label=_("Seed"),
        help_text=_("Empty: a new random seed. The same seed gives the same seating."),
    )
    confirmation = forms.CharField(required=False, label=_("Confirmation"))


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Registration.objects.none(), label=_("Swap"))
    second = forms.ModelChoiceField(queryset=Registration.objects.none(), label=_("with"))

    def __init__(self, *args, round_, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        seated = Registration.objects.filter(seats__table__round=round_).select_related("player")
        names = latvian_choices(seated, name=lambda registration: registration.player.full_name)
        choices = [("", "---------"), *names]
        for name in ("first", "second"):
            self.fields[name].queryset = seated
            self.fields[name].choices = choices


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "city")
        labels = {"name": _("Club")}
        field_classes = {"name": NameField}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        known = club_named(name)
        if known is not None:
            raise forms.ValidationError(
                _("The register already has the club “%(name)s”: it reads the same."),
                params={"name": known.name},
            )
        return name


# --- Entry fees ----------------------------------------------------------------------------------

MAX_FEE = Decimal("99999.99")


class FeeCategoryForm(forms.Form):
    """One fee category on the fees page; `category` is its id (empty: a new one)."""

    category = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)
    name = NameField(label=_("Category"), max_length=60, required=False)
    amount = forms.DecimalField(
        label=_("Fee (€)"),
        min_value=Decimal(0),
        max_value=MAX_FEE,
        decimal_places=2,
        required=False,
        localize=True,
    )
    remove = forms.BooleanField(label=_("Remove"), required=False)

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        name = (data.get("name") or "").strip()
        filled = data.get("category") or name or data.get("amount") is not None
        if not self.errors and not data.get("remove") and filled:
            if not name:
                self.add_error("name", _("Name the category."))
            if data.get("amount") is None:
                self.add_error("amount", _("Give the fee, e.g. 15."))
        data["name"] = name
        return data


FeeCategoryFormSet = forms.formset_factory(
    FeeCategoryForm, extra=2, max_num=20, validate_max=True, absolute_max=20
)


class IdChoiceField(forms.ModelChoiceField):
    """A choice of one row by id, where an id too large for any database key is an unknown
    choice like any other (the query would fail on it: SQLite overflows)."""

    def to_python(self, value):
        digits = str(value).strip().lstrip("+-")
        if digits.isdigit() and len(digits) > ID_MAX_DIGITS:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


class FeeCategorySetForm(forms.Form):
    """The entries page's ticks: these players pay the fee of this category."""

    registrations = RegistrationChoiceField(
        queryset=Registration.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    category = IdChoiceField(
        queryset=FeeCategory.objects.none(), label=_("Fee of the ticked players")
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registrations"].queryset = tournament.registrations.all()
        categories = list(tournament.fee_categories.all())
        self.fields["category"].queryset = tournament.fee_categories.all()
        self.fields["category"].empty_label = None
        # The first category is everyone's already: the one players are given is another.
        if len(categories) > 1:
            self.fields["category"].initial = categories[1].pk


class FeesPaidForm(forms.Form):
    """The check-in's fee ticks: exactly the players ticked have paid."""

    paid = RegistrationChoiceField(
        queryset=Registration.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Fee paid"),
    )

    def __init__(self, *args, tournament, fee_labels: dict[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["paid"]
        field.queryset = tournament.registrations.select_related("player")
        registrations = list(field.queryset)
        marks = namesake_marks(registration.player for registration in registrations)

        def label(registration: Registration) -> str:
            name = _labelled(registration.player.full_name, marks.get(registration.player_id))
            fee = fee_labels.get(registration.pk)
            return f"{name} · {fee}" if fee else name

        field.choices = latvian_choices(
            registrations, name=lambda registration: registration.player.full_name, label=label
        )


# Registration online: the organiser's buttons on a registration (accept, move, refuse).
SIGNUP_ACTIONS = (
    ("accept", _("Accept")),
    ("listed", _("Move to the list")),
    ("waiting", _("Move to the waiting list")),
    ("refuse", _("Refuse")),
)


class SignUpActionForm(forms.Form):
    signup = forms.IntegerField(min_value=1, max_value=10**ID_MAX_DIGITS - 1)
    action = forms.ChoiceField(choices=SIGNUP_ACTIONS)


class SignUpsAcceptForm(forms.Form):
    """Accept the first `count` registrations of the online list in one step."""

    count = forms.IntegerField(
        min_value=1,
        max_value=MAX_ROUND_NUMBER,
        label=_("How many, from the top of the list"),
    )
