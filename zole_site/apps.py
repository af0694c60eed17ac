from django.apps import AppConfig


class ZoleSiteConfig(AppConfig):
    """The site itself as an app, for the one model it keeps: the rate limits' failure count."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "zole_site"
    verbose_name = "Zole site"
