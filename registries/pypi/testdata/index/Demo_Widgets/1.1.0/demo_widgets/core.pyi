class Widget:
    """A widget (from the stub)."""

    size: int

    def __init__(self, size: int) -> None: ...
    def resize(self, n: int) -> "Widget":
        """Resize the widget."""
