package crawl

import "github.com/docidx/docidx/internal/budget"

// DefaultMaxMemory is the memory budget of a crawl, in bytes (700 MiB); see Options.MaxMemory.
const DefaultMaxMemory = 700 << 20

// memoryBudget returns the budget the package versions of a crawl with opts share: half of
// opts.MaxMemory, the other half left to the garbage collector and the sink.
func memoryBudget(opts Options) *budget.Budget {
	maxMemory := opts.MaxMemory
	if maxMemory <= 0 {
		maxMemory = DefaultMaxMemory
	}
	return budget.New(max(maxMemory/2, 1))
}
