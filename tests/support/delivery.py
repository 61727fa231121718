"""The delivery reports of a confluent-kafka Producer, for the suite's producer scripts.

A script run as `python tests/support/<script>.py` has tests/support first on sys.path, so
`from delivery import Deliveries` finds this file.
"""
import sys


class Deliveries:
    """Collects [partition, offset] of each delivered record; `report` is the on_delivery callback."""

    def __init__(self):
        self.offsets = []
        self.errors = []

    def report(self, err, msg):
        if err is not None:
            self.errors.append(str(err))
        else:
            self.offsets.append([msg.partition(), msg.offset()])

    def flush_or_exit(self, producer, timeout=30):
        """Waits for every delivery report; exits 1 naming the first error, or how many were not delivered."""
        left = producer.flush(timeout)
        if self.errors or left:
            print(f"delivery failed: {self.errors[0] if self.errors else f'{left} records not delivered within {timeout} s'}", file=sys.stderr)
            sys.exit(1)
