"""What players are told and how: a phone's push subscription on a player's own page, a
notice (something happened that players hear of), and its deliveries (one message to one
phone or one mail address, with its attempts)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from signups.models import SignUp
from tournaments.models import Registration, Round, Table, Tournament


class PushSubscription(models.Model):
    """One browser's push address, given by the player on his own page: the push service's
    endpoint and the keys the browser decrypts its messages with (RFC 8291)."""

    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("registration"),
    )
    endpoint = models.URLField(_("push endpoint"), max_length=1000)
    # The browser's P-256 public key (65 bytes) and its 16-byte authentication secret,
    # base64url without padding, as PushSubscription.toJSON() gives them.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    # The language the player reads his page in: his messages are written in it.
    language = models.CharField(_("language"), max_length=8)
    created_at = models.DateTimeField(_("subscribed at"), default=timezone.now)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "endpoint"], name="one_subscription_per_endpoint"
            )
        ]

    def __str__(self) -> str:
        return f"{self.registration} · {self.endpoint[:40]}"


class NoticeKind(models.TextChoices):
    CHECK_IN_OPENED = "check_in_opened", _("check-in opened")
    SEATING_PUBLISHED = "seating_published", _("seating published")
    ROUND_STARTED = "round_started", _("round started")
    TIME_CALLED = "time_called", _("time called")
    TABLE_CONFIRMED = "table_confirmed", _("table confirmed")
    ROUND_CLOSED = "round_closed", _("round closed")
    FINAL_STANDINGS = "final_standings", _("final standings")
    ANNOUNCEMENT = "announcement", _("announcement")
    # Mail to a player who registered online.
    SIGNUP_LISTED = "signup_listed", _("on the list")
    SIGNUP_WAITING = "signup_waiting", _("on the waiting list")
    SIGNUP_ACCEPTED = "signup_accepted", _("accepted")
    SIGNUP_MOVED_UP = "signup_moved_up", _("moved up from the waiting list")
    SIGNUP_REFUSED = "signup_refused", _("refused")


class Notice(models.Model):
    """Something players are told of. Written in the transaction of what happened (one row,
    whatever the number of players), and turned into deliveries off the request path."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="notices", verbose_name=_("tournament")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=NoticeKind.choices)
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    signup = models.ForeignKey(
        SignUp, on_delete=models.CASCADE, null=True, blank=True, related_name="notices"
    )
    # The organiser's own words (an announcement).
    text = models.CharField(_("text"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # When its deliveries were written: none until then.
    expanded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(expanded_at__isnull=True),
                name="notice_to_expand",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.tournament}"


class DeliveryState(models.TextChoices):
    PENDING = "pending", _("waiting")
    SENT = "sent", _("sent")
    GONE = "gone", _("the phone unsubscribed")
    FAILED = "failed", _("failed")


class Delivery(models.Model):
    """One message to one phone (a push subscription) or one mail address: its text, fixed
    when written so that a retry sends the same, and its attempts."""

    notice = models.ForeignKey(Notice, on_delete=models.CASCADE, related_name="deliveries")
    subscription = models.ForeignKey(
        PushSubscription,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="deliveries",
    )
    address = models.EmailField(blank=True)
    # Push: {"title", "body", "url", "tag"}; mail: {"subject", "body"}.
    message = models.JSONField()
    state = models.CharField(
        max_length=10, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    # When it is tried next; also the lease of an attempt under way (a sender that stops
    # mid-attempt leaves it to be tried again then).
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # After this it is no longer worth sending (a seating an hour late only misleads).
    expires_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(state="pending"),
                name="delivery_due",
            )
        ]

    def __str__(self) -> str:
        return f"{self.notice} → {self.address or self.subscription_id} ({self.state})"
