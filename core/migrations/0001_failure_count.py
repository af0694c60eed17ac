# The rate limits' failure count moves from zole_site to core: the table stays as it is (its name is
# kept in Meta.db_table); only Django's idea of which app owns the model changes.

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("zole_site", "0001_failure_count"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="FailureCount",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("scope", models.CharField(max_length=32)),
                        ("address", models.CharField(max_length=64)),
                        ("count", models.PositiveIntegerField(default=0)),
                        ("expires_at", models.DateTimeField(db_index=True)),
                    ],
                    options={
                        "db_table": "zole_site_failurecount",
                        "constraints": [models.UniqueConstraint(fields=("scope", "address"), name="failure_count_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
