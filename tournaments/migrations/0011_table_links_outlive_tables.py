from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def round_of_each_link(apps, schema_editor):
    """Every link belongs to its table's round."""
    TableToken = apps.get_model("tournaments", "TableToken")
    Table = apps.get_model("tournaments", "Table")
    TableToken.objects.update(
        round_id=Subquery(Table.objects.filter(pk=OuterRef("table_id")).values("round_id")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_federation_formats"),
    ]

    operations = [
        migrations.AddField(
            model_name="tabletoken",
            name="round",
            field=models.ForeignKey(
                null=True,
                on_delete=models.deletion.CASCADE,
                related_name="table_tokens",
                to="tournaments.round",
                verbose_name="round",
            ),
        ),
        migrations.RunPython(round_of_each_link, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tabletoken",
            name="round",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="table_tokens",
                to="tournaments.round",
                verbose_name="round",
            ),
        ),
        migrations.AlterField(
            model_name="tabletoken",
            name="table",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.deletion.SET_NULL,
                related_name="tokens",
                to="tournaments.table",
                verbose_name="table",
            ),
        ),
    ]
