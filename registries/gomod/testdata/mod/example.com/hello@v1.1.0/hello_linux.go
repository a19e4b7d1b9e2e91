package hello

// PlatformName returns the operating system name.
func PlatformName() string { return "linux" }
