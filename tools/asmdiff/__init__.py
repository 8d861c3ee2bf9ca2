"""asmdiff — the commands behind ./asmdiff, one module each (cli.py parses and dispatches).

Everything the package knows of the families comes from the builds (BUILD/families.json);
everything it knows of a run comes from the run's result stream (results.py,
docs/results.md), never from the text the programs print for people.
"""
