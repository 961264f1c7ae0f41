"""Data and helpers for the checker tests (hand derivations, stand-in derivations)."""
