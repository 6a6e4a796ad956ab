"""Orders from email: the text a player wrote, read as typed actions and commands (ORDERS.md)."""

from pbem.orders.errors import OrdersError
from pbem.orders.games import grammar_for
from pbem.orders.grammar import Command, Grammar, Order, OrderForm, Password, Talk
from pbem.orders.help import help_text, render_help
from pbem.orders.incoming import IncomingEmail, email_text, parse_message, read_email
from pbem.orders.parse import IgnoredLine, LineError, OrderLine, ParsedOrders, parse_orders
from pbem.orders.quotes import ORDERS_ABOVE_MARK, new_text

__all__ = [
    "ORDERS_ABOVE_MARK",
    "Command",
    "Grammar",
    "IgnoredLine",
    "IncomingEmail",
    "LineError",
    "Order",
    "OrderForm",
    "OrderLine",
    "OrdersError",
    "ParsedOrders",
    "Password",
    "Talk",
    "email_text",
    "grammar_for",
    "help_text",
    "new_text",
    "parse_message",
    "parse_orders",
    "read_email",
    "render_help",
]
