from .client import Client, ProximalClient
from .server import FedAvgMServer

__all__ = ["Client", "ProximalClient", "FedAvgMServer"]
