"""Scoring pages, one module per audience (`entry`: the table entry page and its links)."""
