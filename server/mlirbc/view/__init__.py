"""The text view of a whole module: the generic-form printer and parser, and the source map between them."""
