from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_audit_import_action"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="language",
            field=models.CharField(
                choices=[("lv", "Latviešu"), ("ru", "Русский"), ("en", "English")],
                default="lv",
                max_length=8,
            ),
        ),
    ]
