"""Table sets: the format, loading and mapping, pages, publishing, bundles and atomic output files."""
