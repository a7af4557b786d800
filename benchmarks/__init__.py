"""Throughput benchmarks of the batched cores (``madang bench``)."""
