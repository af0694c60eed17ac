"""Tournament models: clubs, players, tournaments and their options, entries, rounds, tables.

Meta options are tuples: immutable class attributes (ruff RUF012), the same to Django.
"""

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)

    class Meta:
        ordering = ("name",)
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    full_name = models.CharField(_("full name"), max_length=120)
    # PROTECT: deleting a club must not silently delete its players' history.
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    # Blank (not NULL) when unknown, per Django's convention for text fields; so uniqueness
    # has to exclude the blank value explicitly.
    licence_number = models.CharField(_("federation licence number"), max_length=20, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ("full_name",)
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = (
            models.UniqueConstraint(
                fields=["licence_number"],
                condition=~Q(licence_number=""),
                name="player_licence_number_unique_when_set",
                violation_error_message=_("Another player has this licence number."),
            ),
        )

    def __str__(self) -> str:
        return self.full_name


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

    class Meta:
        ordering = ("-starts_on", "name")
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def seating_mode_for(self, round_number: int) -> str:
        return self.first_round_seating if round_number == 1 else self.later_rounds_seating


def new_check_in_token() -> str:
    # 24 bytes from the OS's CSPRNG: never guessed, short enough for a printed QR code.
    return secrets.token_urlsafe(24)


# Read aloud in a hall and typed on a phone: no 0/O, 1/I, 2/Z, 5/S, 8/B to mistake.
CHECK_IN_CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY34679"
CHECK_IN_CODE_LENGTH = 5


def new_check_in_code() -> str:
    return "".join(secrets.choice(CHECK_IN_CODE_LETTERS) for _ in range(CHECK_IN_CODE_LENGTH))


class Registration(models.Model):
    """A player's registration in a tournament."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="registrations",
        verbose_name=_("player"),
    )
    team = models.CharField(_("team"), max_length=80, blank=True)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # A late registration joins from a later round; earlier rounds count as not played.
    first_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )
    # A player who needs a particular table (accessibility) sits there every round.
    fixed_table = models.PositiveSmallIntegerField(
        _("fixed table (accessibility)"), null=True, blank=True
    )
    # Entry fees: the player's fee category (empty: the tournament's first) and when the fee was
    # paid and to whom (empty: not paid).
    fee_category = models.ForeignKey(
        "FeeCategory",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("fee category"),
    )
    fee_paid_at = models.DateTimeField(_("fee paid at"), null=True, blank=True)
    fee_paid_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fee paid to"),
    )
    # Self check-in: the secret of the player's own page (/t/<slug>/me/<token>/), which checks
    # him in with one tap.
    check_in_token = models.CharField(
        _("check-in link"), max_length=64, unique=True, default=new_check_in_token, editable=False
    )

    class Meta:
        ordering = ("player__full_name",)
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_player"),
        )

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None


class RoundStatus(models.TextChoices):
    # A round's status, as in "round 2: published".
    DRAFT = "draft", pgettext_lazy("round status", "draft")
    PUBLISHED = "published", pgettext_lazy("round status", "published")
    IN_PLAY = "in_play", pgettext_lazy("round status", "in play")
    CLOSED = "closed", pgettext_lazy("round status", "closed")


class Round(models.Model):
    """A round (kārta): draft → published → in play → closed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT
    )
    seating_mode = models.CharField(_("seating"), max_length=8, choices=SeatingMode.choices)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)
    generated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # The rules the round is played with (tournaments/rule_set.py), fixed when it is published:
    # a later change of the tournament's options applies from the next round. Empty: a draft,
    # which follows the tournament's options.
    rule_set = models.JSONField(_("rule set"), default=dict, blank=True)
    # The round clock of a timed round: the limit is fixed when the clock starts.
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    time_limit = models.PositiveSmallIntegerField(_("time limit (minutes)"), null=True, blank=True)
    # The chief referee called time before the clock ran out.
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    # Self check-in: the code the hall display shows while the round is a draft not yet seated.
    check_in_code = models.CharField(
        _("check-in code"), max_length=8, default=new_check_in_code, editable=False
    )

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        )

    def __str__(self) -> str:
        return gettext("%(tournament)s · round %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }


class CheckInMethod(models.TextChoices):
    """How a check-in was made: the round's preparation checks in every player provisionally,
    the organiser's tick is final, the player himself by the round's code or his own link."""

    ROUND = "round", _("with the round's preparation")
    ORGANISER = "organiser", _("by the organiser")
    CODE = "code", _("by the player, with the round's code")
    LINK = "link", _("by the player, with his own link")


class CheckIn(models.Model):
    """A registration is present for a round; only checked-in players are seated."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="check_ins",
        verbose_name=_("registration"),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), auto_now_add=True)
    method = models.CharField(
        _("checked in"),
        max_length=10,
        choices=CheckInMethod.choices,
        default=CheckInMethod.ORGANISER,
    )

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = (
            models.UniqueConstraint(
                fields=["round", "registration"], name="check_in_once_per_round"
            ),
        )

    def __str__(self) -> str:
        return gettext("%(entry)s · round %(number)s") % {
            "entry": self.registration,
            "number": self.round.number,
        }


class Table(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    first_dealer_position = models.PositiveSmallIntegerField(_("first dealer's seat"), default=1)
    # Why the table is as it is, from the engine: [{"code": "repeat_meeting", "detail": "..."}].
    flags = models.JSONField(_("flags"), default=list, blank=True)
    # Once the round's time is up a table plays only the deal under way; the chief referee may
    # allow it this many deals more (scoring.services.table_deals_allow).
    deals_allowed_after_time = models.PositiveSmallIntegerField(
        _("deals allowed after time"), default=0
    )
    # Referee accounts assigned to this table: they enter its deals signed in, without the link.
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_tables",
        verbose_name=_("table referees"),
    )

    class Meta:
        ordering = ("round", "number")
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
        )

    def __str__(self) -> str:
        return gettext("%(round)s · table %(number)s") % {
            "round": self.round,
            "number": self.number,
        }


def new_table_token() -> str:
    # 32 bytes from the OS's CSPRNG: unguessable, and short enough for a QR code.
    return secrets.token_urlsafe(32)


class TableToken(models.Model):
    """The private entry link of a table (/r/<token>/), revocable by the organiser.

    A link outlives its table: when a published round is seated again its tables go, and
    their links stay behind revoked, with no table, so that whoever still holds one is told
    the round was re-seated (a link nobody issued is only "not found")."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="table_tokens", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tokens",
        verbose_name=_("table"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_table_token)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("table link")
        verbose_name_plural = _("table links")

    def __str__(self) -> str:
        return gettext("%(table)s · link") % {"table": self.table or self.round}


class DisplayLink(models.Model):
    """The private address of the tournament's hall display (/t/<slug>/display/<token>/): the
    public display and the check-in code of the round being prepared, for the screen in the
    hall. The organiser renews or revokes it; a tournament has one working link at most."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="display_links",
        verbose_name=_("tournament"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_table_token)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("hall display link")
        verbose_name_plural = _("hall display links")

    def __str__(self) -> str:
        return gettext("%(tournament)s · hall display link") % {"tournament": self.tournament}


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # 1-based, each to the left of the previous
    position = models.PositiveSmallIntegerField(_("seat"))
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="seats", verbose_name=_("registration")
    )

    class Meta:
        ordering = ("table", "position")
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = (
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "registration"], name="seat_once_per_table"),
        )

    def __str__(self) -> str:
        return gettext("%(table)s · seat %(number)s") % {
            "table": self.table,
            "number": self.position,
        }


class AuditEntry(models.Model):
    """One organiser or referee action, with a typed code (who, when, from where, what)."""

    class Action(models.TextChoices):
        ROUND_GENERATED = "round.generated", _("seating generated")
        ROUND_REGENERATED = "round.regenerated", _("published seating regenerated")
        ROUND_SWAP = "round.swap", _("players swapped")
        ROUND_PUBLISHED = "round.published", _("round published")
        PLAYERS_IMPORTED = "players.imported", _("players imported")
        PLAYER_SAVED = "player.saved", _("player added or changed")
        CLUB_ADDED = "club.added", _("club added")
        ENTRIES_REGISTERED = "entries.registered", _("players registered")
        # Stored values: actions on a registration keep their `entry.*` names in the log.
        ENTRY_CHANGED = "entry.changed", _("entry changed")
        ENTRY_WITHDRAWN = "entry.withdrawn", _("entry withdrawn")
        ROUND_CREATED = "round.created", _("round prepared")
        CHECK_IN_CHANGED = "round.check_in", _("check-in changed")
        QUALIFIERS_REGISTERED = "entries.qualified", _("qualifiers registered from the ranking")
        RANKING_CHANGED = "ranking.changed", _("season or final invitation changed")
        DEAL_ENTERED = "deal.entered", _("deal entered")
        DEAL_CORRECTED = "deal.corrected", _("deal corrected")
        DEAL_REMOVED = "deal.removed", _("deal removed")
        PENALTY_GIVEN = "penalty.given", _("penalty pule given")
        TABLE_CONFIRMED = "table.confirmed", _("table confirmed")
        TABLE_UNLOCKED = "table.unlocked", _("table unlocked")
        TOKEN_ISSUED = "token.issued", _("table link issued")
        TOKEN_REVOKED = "token.revoked", _("table link revoked")
        DISPLAY_LINK_ISSUED = "display_link.issued", _("hall display link issued")
        DISPLAY_LINK_REVOKED = "display_link.revoked", _("hall display link revoked")
        ROUND_CLOSED = "round.closed", _("round closed")
        ROLE_GRANTED = "role.granted", _("role given")
        ROLE_REVOKED = "role.revoked", _("role taken away")
        TABLE_REFEREES = "table.referees", _("table referees assigned")
        TOURNAMENT_IMPORTED = "tournament.imported", _("tournament imported from an archive")
        SETTINGS_CHANGED = "tournament.settings", _("tournament settings changed")
        CLOCK_STARTED = "round.clock_started", _("round clock started")
        CLOCK_RESET = "round.clock_reset", _("round clock stopped and reset")
        TIME_CALLED = "round.time_called", _("time called")
        DEALS_ALLOWED = "table.deals_allowed", _("more deals allowed after time")
        API_TOKEN_CREATED = "api_token.created", _("API token created")
        API_TOKEN_REVOKED = "api_token.revoked", _("API token revoked")
        # Self check-in and calling the referee.
        SELF_CHECK_IN = "round.self_check_in", _("player checked himself in")
        REFEREE_CALLED = "table.referee_called", _("chief referee called to a table")
        REFEREE_CALL_ANSWERED = "table.referee_call_answered", _("referee call answered")
        # Entry fees and prizes.
        FEES_PAID = "fees.paid", _("entry fees ticked paid or unpaid")
        FEE_CATEGORIES = "fees.categories", _("fee categories changed")
        FEE_CATEGORY_SET = "fees.category_set", _("fee category given to players")
        # Late and absent players
        LATE_ARRIVAL = "player.late", _("late arrival recorded")
        OUT_OF_ROUND = "player.out_of_round", _("player out of the round")
        # Registration online.
        SIGNUP_CREATED = "signup.created", _("signed up online")
        SIGNUP_ACCEPTED = "signup.accepted", _("online sign-up accepted")
        SIGNUP_MOVED = "signup.moved", _("online sign-up moved")
        SIGNUP_REFUSED = "signup.refused", _("online sign-up refused")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("tournament"),
    )
    table = models.ForeignKey(
        "Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("table"),
    )
    action = models.CharField(_("action"), max_length=40, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("account"),
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    ip_address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    detail = models.JSONField(_("detail"), default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"  # codes, for operators


class FeeCategory(models.Model):
    """One entry fee of a tournament ("Standard" 15,00 €, "Dāmām" 10,00 €); the first in order
    is the fee of a registration without a category."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="fee_categories",
        verbose_name=_("tournament"),
    )
    name = models.CharField(_("name"), max_length=60)
    amount = models.DecimalField(
        _("fee (€)"),
        max_digits=8,
        decimal_places=2,
        validators=[MinValueValidator(Decimal(0))],
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ("order", "pk")
        verbose_name = _("fee category")
        verbose_name_plural = _("fee categories")
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "name"], name="fee_category_name_once_per_tournament"
            ),
        )

    def __str__(self) -> str:
        return self.name


class SignUpStatus(models.TextChoices):
    # Where an online registration stands, as in "Anna Ozoliņa: on the waiting list".
    LISTED = "listed", pgettext_lazy("sign-up status", "on the list")
    WAITING = "waiting", pgettext_lazy("sign-up status", "on the waiting list")
    ACCEPTED = "accepted", pgettext_lazy("sign-up status", "accepted")
    REFUSED = "refused", pgettext_lazy("sign-up status", "refused")


class SignUp(models.Model):
    """A player's registration on the tournament's public page, until the organiser accepts it
    (it then becomes a `Registration`) or refuses it. The typed name, club and licence are
    kept as typed; `player` is the register's player they name, when he is there already."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="signups", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="signups",
        verbose_name=_("player"),
    )
    full_name = models.CharField(_("full name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence_number = models.CharField(_("federation licence number"), max_length=20, blank=True)
    # Private: shown to the organisers only, never on a public page or in the audit log.
    contact = models.CharField(_("contact (e-mail or phone)"), max_length=120, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=SignUpStatus.choices, default=SignUpStatus.LISTED
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # Orders a list: when he joined the list he is on (a move puts him at its end).
    queued_at = models.DateTimeField(_("on this list since"))
    registration = models.OneToOneField(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signup",
        verbose_name=_("registration"),
    )

    class Meta:
        ordering = ("queued_at", "pk")
        verbose_name = _("online sign-up")
        verbose_name_plural = _("online sign-ups")

    def __str__(self) -> str:
        return f"{self.full_name} @ {self.tournament}"


# --- Self check-in and calling the referee ---------------------------------------------------


class CheckOut(models.Model):
    """The organiser unticked this registration for this round: his tick is final, so the
    player cannot check himself in again for it."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="check_outs", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="check_outs",
        verbose_name=_("registration"),
    )
    checked_out_at = models.DateTimeField(_("checked out at"), auto_now_add=True)

    class Meta:
        verbose_name = _("check-out")
        verbose_name_plural = _("check-outs")
        constraints = (
            models.UniqueConstraint(
                fields=["round", "registration"], name="check_out_once_per_round"
            ),
        )

    def __str__(self) -> str:
        return gettext("%(entry)s · round %(number)s") % {
            "entry": self.registration,
            "number": self.round.number,
        }


class RefereeCall(models.Model):
    """A table called the chief referee; open until he marks it answered. A table has at most
    one open call: pressing again after a minute reminds him (`reminded_at`)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="referee_calls", verbose_name=_("table")
    )
    called_at = models.DateTimeField(_("called at"))
    reminded_at = models.DateTimeField(_("called again at"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )

    class Meta:
        ordering = ("called_at", "pk")
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        constraints = (
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(answered_at__isnull=True),
                name="referee_call_one_open_per_table",
            ),
        )

    def __str__(self) -> str:
        return gettext("%(table)s · call") % {"table": self.table}
