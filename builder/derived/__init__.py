"""Derived tables, computed from a built DAG set: strength (:mod:`.strength`) and buckets (:mod:`.abstraction`)."""
