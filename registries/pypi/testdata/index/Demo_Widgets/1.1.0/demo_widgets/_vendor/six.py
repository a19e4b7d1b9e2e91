def vendored_helper():
    """Another project's code, bundled."""
