"""Attention as match -> distribute -> combine (placeholder: being built for the attention issue)."""


def attention(m, n, d, **options):
    raise NotImplementedError("attention is being built")
