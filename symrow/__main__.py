"""``python -m symrow``: the same as the ``symrow`` command."""

from .cli import main

raise SystemExit(main())
