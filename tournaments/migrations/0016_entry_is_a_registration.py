from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):
    """A player's registration for a tournament is a `Registration` (its table renamed)."""

    # After every migration that names the model Entry (scoring's first one does): the rename
    # then reaches its foreign keys in whatever order the apps' migrations are planned.
    dependencies = [
        ("tournaments", "0015_table_deals_after_time"),
        ("scoring", "0001_initial"),
    ]

    operations = [
        migrations.RenameModel(old_name="Entry", new_name="Registration"),
        migrations.AlterModelOptions(
            name="registration",
            options={
                "ordering": ("player__full_name",),
                "verbose_name": "registration",
                "verbose_name_plural": "registrations",
            },
        ),
        migrations.AlterField(
            model_name="registration",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="registrations",
                to="tournaments.player",
                verbose_name="player",
            ),
        ),
        migrations.AlterField(
            model_name="registration",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="registrations",
                to="tournaments.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.AlterField(
            model_name="checkin",
            name="entry",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="check_ins",
                to="tournaments.registration",
                verbose_name="registration",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="entry",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="tournaments.registration",
                verbose_name="registration",
            ),
        ),
    ]
