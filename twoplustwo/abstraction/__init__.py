"""Card abstraction: exact k-means of uint16 rows, and reading the bucket tables the builder makes."""
