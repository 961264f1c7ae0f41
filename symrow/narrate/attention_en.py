"""Narration templates: attention (en).  Fields in braces are shown as inline math."""

TEMPLATES: dict[str, str] = {}
