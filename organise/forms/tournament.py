"""A tournament and its options, from a preset or one by one; each checked with the rule that
lives in the engine."""

from __future__ import annotations

import json
from decimal import Decimal

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.engine_text import error_text
from engine import PlaceScheme, SheetError
from engine.presets import PRESETS
from engine.prizes import parse_prize_shares
from engine.rules import deals_per_round_fits
from organise.forms.fields import (
    DATE_INPUT,
)
from tournaments.bounds import (
    MAX_DEALS_PER_ROUND,
    MAX_PLACE_POINTS,
    MAX_ROUND_MINUTES,
)
from tournaments.models import Tournament
from tournaments.rule_set import preset_options

PRESET_CHOICES = (
    ("classic", _("classic: tables of 3, 24 deals, seated swiss (the seeds' rules)")),
    (
        "lzf",
        _("LZF: tables of 4 seated by rank, 28 deals (27 at a table of 3; federation classic)"),
    ),
    ("lzf-rondo", _("LZF rondo: as LZF with mazā zole, rondo galdiņš and pules (elite)")),
)


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
