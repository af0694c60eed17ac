"""What the API stores: the organisers' personal API tokens.

Meta options are tuples: immutable class attributes (ruff RUF012), the same to Django.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """An organiser's personal token for the API (`Authorization: Bearer <secret>`).

    Only the secret's SHA-256 is kept: the secret is shown once, when the token is made, and a
    copy of the database opens nothing. `hint` (the secret's first characters) tells the owner's
    tokens apart in his list."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("account"),
    )
    name = models.CharField(_("name"), max_length=80)
    digest = models.CharField(_("SHA-256 of the secret"), max_length=64, unique=True)
    hint = models.CharField(_("beginning of the secret"), max_length=16)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return self.name
