"""Narration templates: handout (en).  Fields in braces are shown as inline math."""

TEMPLATES: dict[str, str] = {}
