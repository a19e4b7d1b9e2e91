def make_widget(size=1):
    """Make a widget."""
