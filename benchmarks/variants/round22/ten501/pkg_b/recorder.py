class Recorder:
    def __init__(self):
        self.rows = []
        self.total = 0.0

    def record(self, terms):
        self.rows.append(terms)  # expect: TEN501

    def record_total(self, value):
        self.total = self.total + value  # expect: TEN501


class CleanRecorder:
    def __init__(self):
        self.rows = []

    def record(self, terms):
        self.rows.append({k: v.detach() for k, v in terms.items()})  # ok
