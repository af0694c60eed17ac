# The rate limits' failure count now belongs to core (core/migrations/0001): zole_site forgets the
# model without touching its table, which core keeps under the same name.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("zole_site", "0001_failure_count"),
        ("core", "0001_failure_count"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="FailureCount")],
            database_operations=[],
        ),
    ]
