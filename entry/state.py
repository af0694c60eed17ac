"""The table's state as the phone's script reads it: the sheet in the engine's own JSON (README,
"The engine's command line"), so the phone scores it with the engine's rules, and what the page's
forms need (positions, versions, players). Embedded in the entry page (`table-state`) and sent
again in every answer of the phone's sync (entry.sync)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from engine.json_contract import sheet_to_json
from scoring.sheet.shape import TableSheet


def table_state(sheet: TableSheet, *, link: str, sync: str) -> dict[str, object]:
    """`sheet` as the phone starts from: `link`, the page's own path (the phone keeps its queue
    per link); `sync`, where it sends its entries."""
    clock = sheet.clock
    return {
        "link": link,
        "sync": sync,
        # The newest result id: the phone keeps the fresher of two states by it.
        "mark": sheet.last_result_id,
        "accepts_entries": sheet.accepts_entries,
        "confirmed": sheet.is_confirmed,
        # Time called: the deals the table may have in all (None while it may play them all).
        "deal_limit": sheet.deal_limit if clock.ended_at is not None else None,
        "deals_per_round": sheet.deals_per_round,
        # The sheet as the page shows it: closed (its settlement) once every planned deal is
        # in, or the table was confirmed when time was up.
        "sheet": sheet_to_json(sheet.engine_sheet()),
        "entries": [
            {
                "position": row.position,
                "version": row.version,
                "number": row.number,
                "kind": "penalty" if row.is_penalty else "deal",
            }
            for row in sheet.rows
        ],
        "players": [
            {
                "key": player.key,
                "name": player.name,
                "short": player.short_name,
                "initials": player.initials,
            }
            for player in sheet.players
        ],
        "next_position": sheet.next_position,
        "heard": timezone.now().astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
