import DequeModule

public func registerDequeBenchmarks() {}
