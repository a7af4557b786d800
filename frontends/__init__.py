"""The front ends, the top floor: the ``madang`` command line (:mod:`frontends.cli`), terminal and
web play (:mod:`frontends.play`), the demo (:mod:`frontends.demo`) and ONNX export
(:mod:`frontends.export`).  They use ``agents`` and ``training``; nothing below imports them
(docs/architecture.md)."""
