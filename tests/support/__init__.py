"""Helpers shared by tests: random legal play, stacked decks, the strict pokerkit oracle."""
