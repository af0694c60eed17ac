"""The JSON API (/api/v1/): the public reads of the pages for other programs, and the writes
the site already lets the same person make; registered with Django."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
