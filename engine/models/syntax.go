package models

// Syntax checks of string parameters that have a grammar rather than a
// list of choices (vocab.Param.Syntax): the spec parser runs them, so a
// mistyped value is refused at its line and column instead of failing
// every scenario that uses it.

// checkStation is the Syntax of leo-path's src and dst: a built-in city
// or "lat,lon".
func checkStation(s string) error {
	_, err := parseStation(s)
	return err
}

// checkEmulate is the Syntax of tcp-compete's emulate: a comma-separated
// subset of the testbed mechanisms, or none.
func checkEmulate(s string) error {
	_, err := parseEmulate(s)
	return err
}
