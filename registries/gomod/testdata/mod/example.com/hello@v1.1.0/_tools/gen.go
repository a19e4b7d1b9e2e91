package tools

// Gen is in an underscore directory, which the go command ignores.
func Gen() {}
