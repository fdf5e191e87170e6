import random
from collections import deque, namedtuple

Transition = namedtuple("Transition", "state action reward next_state done q_estimate")


class ReplayBuffer:
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, k):
        return random.sample(self.memory, k)

    def __len__(self):
        return len(self.memory)
