"""Derivations: one module per kind (products: combine and match; attention)."""
