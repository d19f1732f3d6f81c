"""The parts of ``benchmarks/load.py``, one idea a module: the servers it starts
(``servers``, ``bare``, ``watched``), the clients that play and time (``generator``), the
clients that abuse (``abuse``), pause accounting (``pauses``), one measured run (``measure``)
and its report (``report``)."""
