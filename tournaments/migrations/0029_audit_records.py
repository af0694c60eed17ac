# A line of the audit log is an audit record: "entry" is a line of a table's sheet only.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0028_hall_has_its_own_app"),
    ]

    operations = [
        migrations.RenameModel(old_name="AuditEntry", new_name="AuditRecord"),
        migrations.AlterModelOptions(
            name='auditrecord',
            options={'ordering': ('-at', '-id'), 'verbose_name': 'audit record', 'verbose_name_plural': 'audit records'},
        ),
        migrations.AlterField(
            model_name='auditrecord',
            name='action',
            field=models.CharField(choices=[('round.generated', 'seating generated'), ('round.regenerated', 'published seating regenerated'), ('round.swap', 'players swapped'), ('round.published', 'round published'), ('players.imported', 'players imported'), ('player.saved', 'player added or changed'), ('club.added', 'club added'), ('entries.registered', 'players registered'), ('entry.changed', 'registration changed'), ('entry.withdrawn', 'registration withdrawn'), ('round.created', 'round prepared'), ('round.check_in', 'check-in changed'), ('entries.qualified', 'qualifiers registered from the ranking'), ('ranking.changed', 'season or final invitation changed'), ('deal.entered', 'deal entered'), ('deal.corrected', 'deal corrected'), ('deal.removed', 'deal removed'), ('penalty.given', 'penalty pule given'), ('table.confirmed', 'table confirmed'), ('table.unlocked', 'table unlocked'), ('token.issued', 'table link issued'), ('token.revoked', 'table link revoked'), ('display_link.issued', 'hall display link issued'), ('display_link.revoked', 'hall display link revoked'), ('round.closed', 'round closed'), ('role.granted', 'role given'), ('role.revoked', 'role taken away'), ('table.referees', 'table referees assigned'), ('tournament.imported', 'tournament imported from an archive'), ('tournament.settings', 'tournament settings changed'), ('round.clock_started', 'round clock started'), ('round.clock_reset', 'round clock stopped and reset'), ('round.time_called', 'time called'), ('table.deals_allowed', 'more deals allowed after time'), ('api_token.created', 'API token created'), ('api_token.revoked', 'API token revoked'), ('round.self_check_in', 'player checked himself in'), ('table.referee_called', 'chief referee called to a table'), ('table.referee_call_answered', 'referee call answered'), ('fees.paid', 'entry fees ticked paid or unpaid'), ('fees.categories', 'fee categories changed'), ('fees.category_set', 'fee category given to players'), ('player.late', 'late arrival recorded'), ('player.out_of_round', 'player out of the round'), ('signup.created', 'signed up online'), ('signup.accepted', 'online sign-up accepted'), ('signup.moved', 'online sign-up moved'), ('signup.refused', 'online sign-up refused')], max_length=40, verbose_name='action'),
        ),
        migrations.AlterField(
            model_name='auditrecord',
            name='table',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='audit_records', to='tournaments.table', verbose_name='table'),
        ),
        migrations.AlterField(
            model_name='auditrecord',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audit_records', to='tournaments.tournament', verbose_name='tournament'),
        ),
        ]
