"""The hall app, registered with Django."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HallConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "hall"
    verbose_name = _("Hall")
