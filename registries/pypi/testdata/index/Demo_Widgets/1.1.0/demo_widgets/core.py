class Widget:
    def __init__(self, size):
        self.size = size

    def resize(self, n):
        self.size = n
