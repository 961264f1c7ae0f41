"""Narration templates: handout (ja).  Fields in braces are shown as inline math."""

TEMPLATES: dict[str, str] = {}
