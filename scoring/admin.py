"""Admin for scoring models: none yet (they come with the deal results)."""
