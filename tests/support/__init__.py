"""Helpers shared by tests: random legal play, the strict pokerkit oracle, an evaluator stand-in."""
