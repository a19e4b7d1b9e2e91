package hello

// PlanNine exists on Plan 9 only, which docidx does not document.
func PlanNine() {}
