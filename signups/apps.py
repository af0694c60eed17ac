"""The sign-ups app, registered with Django."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignupsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "signups"
    verbose_name = _("Online sign-up")
