"""Search engines: one sans-IO module each, all of the shape described in base.py."""
