"""The vocabulary: cards, hand values, games and range notation."""
