"""pbem: a play-by-email moderator for Show Manager and The Big Time!"""

__version__ = "0.1.0"
