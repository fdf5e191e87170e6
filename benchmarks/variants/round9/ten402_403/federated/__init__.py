"""In-process federated learning simulation (FedAvg / FedProx)."""
from .server import Client, FedAvgServer
from .utils import clone_weights, get_weights, set_weights, weighted_average

__all__ = ["Client", "FedAvgServer", "clone_weights", "get_weights", "set_weights", "weighted_average"]
