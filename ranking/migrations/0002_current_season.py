"""A season for the year the site is installed in, with the default points table, so the ranking
pages have a season from the start (the federation edits or adds seasons in the admin)."""

import datetime

from django.db import migrations

from engine.ranking import DEFAULT_BEST_K, DEFAULT_POINTS_TABLE, DEFAULT_QUALIFIERS


def create_current_season(apps, schema_editor):
    Season = apps.get_model("ranking", "Season")
    if Season.objects.exists():
        return
    year = datetime.date.today().year
    Season.objects.create(
        name=str(year),
        starts_on=datetime.date(year, 1, 1),
        ends_on=datetime.date(year, 12, 31),
        best_k=DEFAULT_BEST_K,
        qualifiers=DEFAULT_QUALIFIERS,
        points_table=DEFAULT_POINTS_TABLE.as_mapping(),
    )


class Migration(migrations.Migration):
    dependencies = [("ranking", "0001_initial")]

    operations = [migrations.RunPython(create_current_season, migrations.RunPython.noop)]
