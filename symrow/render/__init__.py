"""Printers and output formats: LaTeX, Markdown, text and documents."""
