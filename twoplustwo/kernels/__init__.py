"""How the hot loops run: the backend choice, the C core and the numpy reference, the thread pool."""
