"""A table's sheet: where it is read and the one shape every reader gets.

- `lines`: stored deal results as the engine's sheet lines, and what a table's versions say
  (its current entries, deals played, the deal limit once time is up);
- `shape`: `TableSheet`, the sheet as the entry page, the phone's state, the writes and the
  documents read it (players, rows, scores, confirmation), built without reading the database;
- `reader`: where a sheet is read, through either door of the entry page or under the table's
  lock inside a write;
- `plain_sql`: the few statements run on every deal, in plain SQL (its docstring says why).
"""
