"""The organiser's pages app (signed in): a tournament set up and run, its rounds, people, fees
and sign-ups, the register of players and clubs, a table's entry link, a final's qualification
list and the seasons' rules; registered with Django."""

from django.apps import AppConfig


class OrganiseConfig(AppConfig):
    name = "organise"
