from .client import Client
from .server import Server

__all__ = ["Client", "Server"]
