"""Minimal federated averaging simulation (single process)."""
from .client import LocalWorker, make_client_shards
from .server import FedAvgServer

__all__ = ["LocalWorker", "FedAvgServer", "make_client_shards"]
