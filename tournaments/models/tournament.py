"""A tournament and its rules and options: what the organiser sets before round 1.

Meta options are tuples: immutable class attributes (ruff RUF012), the same to Django."""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Level(models.TextChoices):
    # The tournament's level, as in "a district tournament".
    CLUB = "club", pgettext_lazy("tournament level", "club")
    DISTRICT = "district", pgettext_lazy("tournament level", "district")
    NATIONAL = "national", pgettext_lazy("tournament level", "national")


class AllPass(models.TextChoices):
    PULE = "pule", _("a common pule is written")
    GALDINS = "galdins", _("galdiņš is played")
    GALDINS_PULE = "galdins_pule", _("galdiņš is played and a common pule is written")


class GaldinsScoring(models.TextChoices):
    TRICKS = "tricks", _("the most tricks loses, 2 to each other player")
    RONDO = "rondo", _("rondo: the most card points loses, winners get 3/2/1")


class SmallZoleLoss(models.IntegerChoices):
    SEVEN = 7, _("7 to each other player")
    SIX = 6, _("6 to each other player (rondo)")


class FourTablePassPules(models.IntegerChoices):
    ONE = 1, _("one common pule")
    TWO = 2, _("two common pules when no pule is open")


class TableSize(models.IntegerChoices):
    THREES = 3, _("tables of 3 (tables of 4 only where the count needs them)")
    FOURS = 4, _("tables of 4 (tables of 3 only where the count needs them)")


class PersonalPulePayment(models.TextChoices):
    N_MINUS_1 = "N-1", _("N − 1 points")
    N = "N", _("N points")


class SeatingMode(models.TextChoices):
    RANDOM = "random", _("random draw")
    SWISS = "swiss", _("by standings (swiss)")
    MIX = "mix", _("maximal mixing")
    RANKED = "ranked", _("by rank: the best at table 1 (federation)")


class StandingsOrder(models.TextChoices):
    PLACE_POINTS = (
        "place_points,game_points,last_round_game_points",
        _("place points, then game points, then the last round's game points"),
    )
    PLACE_POINTS_WINS = (
        "place_points,wins,game_points",
        _("place points, then table wins, then game points"),
    )
    GAME_POINTS = "game_points", _("game points alone")


class AbsentPlayers(models.TextChoices):
    """Where a player who missed rounds ranks (`engine.standings.AbsentRule`)."""

    POINTS = "points", _("by his points: a missed round counts nothing")
    LAST = "last", _("below every player who played more rounds")


class Role(models.TextChoices):
    """What an account does in a tournament (tournaments/permissions.py says what each may do)."""

    ORGANISER = "organiser", _("organiser")
    CHIEF_REFEREE = "chief_referee", _("chief referee")
    REFEREE = "referee", _("table referee")


# The tournament's relation that holds each role (the fields of that name below).
ROLE_RELATIONS: dict[str, str] = {
    Role.ORGANISER: "organisers",
    Role.CHIEF_REFEREE: "chief_referees",
    Role.REFEREE: "referees",
}


class Tournament(models.Model):
    """A tournament and its options: each option is stored once, here, and read by the engine."""

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("web address"), max_length=80, unique=True)
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    level = models.CharField(_("level"), max_length=10, choices=Level.choices, default=Level.CLUB)
    # The rule-set options (docs/rules.md, "The rule-set options").
    all_pass = models.CharField(
        _("when everyone passes"), max_length=12, choices=AllPass.choices, default=AllPass.PULE
    )
    galdins_scoring = models.CharField(
        _("galdiņš is scored"),
        max_length=8,
        choices=GaldinsScoring.choices,
        default=GaldinsScoring.TRICKS,
    )
    small_zole = models.BooleanField(_("mazā zole is played"), default=False)
    small_zole_loss = models.PositiveSmallIntegerField(
        _("a lost mazā zole costs"), choices=SmallZoleLoss.choices, default=SmallZoleLoss.SEVEN
    )
    personal_pule_payment = models.CharField(
        _("a collected personal pule costs its owner"),
        max_length=3,
        choices=PersonalPulePayment.choices,
        default=PersonalPulePayment.N_MINUS_1,
    )
    four_table_pass_pules = models.PositiveSmallIntegerField(
        _("everyone passing at a table of 4 writes"),
        choices=FourTablePassPules.choices,
        default=FourTablePassPules.ONE,
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds (kārtas)"), default=5)
    deals_per_round = models.PositiveSmallIntegerField(_("deals (partijas) per round"), default=24)
    # Empty: a table of that size plays the deals per round. A count per size lets everyone at a
    # table deal equally often whatever sizes the field needs (27 at a 3 among tables of 4).
    deals_at_three = models.PositiveSmallIntegerField(
        _("deals per round at a table of 3"), null=True, blank=True
    )
    deals_at_four = models.PositiveSmallIntegerField(
        _("deals per round at a table of 4"), null=True, blank=True
    )
    table_size = models.PositiveSmallIntegerField(
        _("tables"), choices=TableSize.choices, default=TableSize.THREES
    )
    # Minutes; empty: rounds are not timed.
    round_time_limit = models.PositiveSmallIntegerField(
        _("round time limit (minutes)"), null=True, blank=True
    )
    place_points_three = models.CharField(
        _("place points at a table of 3"), max_length=60, default="6,4,2"
    )
    place_points_four = models.CharField(
        _("place points at a table of 4"), max_length=60, default="6,4,2,0"
    )
    standings_order = models.CharField(
        _("standings order"),
        max_length=80,
        choices=StandingsOrder.choices,
        default=StandingsOrder.PLACE_POINTS,
    )
    absent_players = models.CharField(
        _("players absent from a round"),
        max_length=8,
        choices=AbsentPlayers.choices,
        default=AbsentPlayers.POINTS,
    )
    first_round_seating = models.CharField(
        _("seating of round 1"),
        max_length=8,
        choices=SeatingMode.choices,
        default=SeatingMode.RANDOM,
    )
    later_rounds_seating = models.CharField(
        _("seating of later rounds"),
        max_length=8,
        choices=SeatingMode.choices,
        default=SeatingMode.SWISS,
    )
    avoid_same_club = models.BooleanField(_("keep players of one club apart"), default=True)
    teams_enabled = models.BooleanField(_("team standings"), default=False)
    # The language its documents (score sheets, seating lists, protocols) are printed in.
    language = models.CharField(
        _("language of the printed documents"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="lv",
    )
    # Late and absent players (docs/rules.md, "Late and absent players"); empty: no such rule.
    late_wait_minutes = models.PositiveSmallIntegerField(
        _("waiting time for a late player (minutes)"), null=True, blank=True
    )
    late_out_deal = models.PositiveSmallIntegerField(
        _("a late player is out of the round by deal"), null=True, blank=True
    )
    # Who may do what is decided in tournaments/permissions.py; these relations only record it.
    # Organisers run this tournament (federation staff organise every tournament anyway).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organised_tournaments",
        verbose_name=_("organisers"),
    )
    # The galvenais tiesnesis: confirms any table, and alone unlocks a confirmed one.
    chief_referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_tournaments",
        verbose_name=_("chief referees"),
    )
    # Table referees' accounts: the organiser assigns them to tables (Table.referees).
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="table_referee_tournaments",
        verbose_name=_("table referees"),
    )
    # Entry fees and prizes: the fund (the fees paid) keeps this share for costs, and the rest
    # goes to places 1..N by the percentages written "40 25 15 10 5 5" (engine.prizes): one text
    # field, as the place points are, read and checked by the engine; empty: no prizes set.
    prize_costs_percent = models.DecimalField(
        _("share of the fund for costs (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(0),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
    )
    prize_shares = models.CharField(
        _("prizes of places 1, 2, 3, ... (%)"), max_length=400, blank=True
    )
    # Maximal mixing plans the remaining rounds at once; later rounds continue this plan.
    mix_plan = models.JSONField(default=dict, blank=True, editable=False)
    # Registration online: players register themselves on the public page until this moment
    # (empty: closed); beyond the places, they go to the waiting list (empty: no limit).
    signup_until = models.DateTimeField(_("signing up online open until"), null=True, blank=True)
    signup_places = models.PositiveSmallIntegerField(_("places"), null=True, blank=True)
    # Empty: signing up online closes when round 1 is published. A round number: players may
    # still sign up until that round is published, and an accepted one plays from the next.
    signup_late_until_round = models.PositiveSmallIntegerField(
        _("late sign-ups online until round"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Every save: the calendar feed tells subscribed calendars that the event changed
    # (LAST-MODIFIED, and SEQUENCE counted from created_at). A queryset's update() skips it.
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        ordering = ("-starts_on", "name")
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def seating_mode_for(self, round_number: int) -> str:
        return self.first_round_seating if round_number == 1 else self.later_rounds_seating
