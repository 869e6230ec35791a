"""The stdio transport: one MCP client on stdin and stdout.

pipe.py reads, writes and bounds the answers owed, through descriptors.py (stdin and
stdout without a thread hop where that cannot block); wire.py judges one line (pure);
long_line.py reads the id, method and tool name of a line too long to read (pure); run.py
opens the Client and serves. Import ``rypsok.serve_stdio.run.serve`` to serve:
this package's own import loads nothing, so the binding can use ``wire`` without a cycle.
"""
