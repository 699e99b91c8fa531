"""Hand histories: finished hands written for players, operators and other tools (PHH)."""
