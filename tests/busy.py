"""Work that never ends, for the worker tests: importable by a worker process, which loads
this module by name to run it (so it imports nothing)."""


def spin(*args: object) -> None:
    """Keep a core busy until killed."""
    while True:
        pass
