"""Font files shipped with the renderer (a package so that installs carry them)."""
