"""The archive of a finished game: a public HTML page anyone may read, and the game master's
transcript that `pbem replay` plays to the same end (issue 13)."""
