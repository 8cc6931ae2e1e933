"""Conformance fixtures and test data: the hands the checks draw (:mod:`.hands`) and the files other readers test
against (:mod:`.conformance`)."""
