package fixture

// Fixture is test data, not API.
func Fixture() {}
