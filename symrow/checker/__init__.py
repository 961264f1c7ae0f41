"""Checking hand derivations (placeholder: being built for the checker issue)."""


def check(tex, against, *, timeout=None):
    raise NotImplementedError("the checker is being built")
