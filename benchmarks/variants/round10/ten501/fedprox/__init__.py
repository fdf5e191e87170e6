from .client import Client, ClientUpdate
from .metrics import RunningLoss, evaluate_global
from .server import FedServer
