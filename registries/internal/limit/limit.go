// Package limit fills in the defaults of the registries' Limits structs, so that each package's
// withDefaults reads as one line per limit and every ecosystem treats a zero or negative limit
// the same way: as "use the default". It imports nothing.
package limit

// Default sets *v to d when *v is zero or negative.
func Default[T ~int | ~int64](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}
