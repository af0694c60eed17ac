"""The public pages app (no sign-in): the tournaments, their rounds, tables, standings and
players, the hall display, and the site's home page; registered with Django."""

from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "public"
