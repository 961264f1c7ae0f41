"""Narration templates: attention (ja).  Fields in braces are shown as inline math."""

TEMPLATES: dict[str, str] = {}
