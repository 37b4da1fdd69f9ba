package jsonvalue

// Hooks for the external tests.

// RefParse is the reference parser (json_ref_test.go).
var RefParse = refParseJSON

// Forging reports whether the parser boxes values by hand (slab.go).
func Forging() bool { return forging }

// SetForging turns boxing by hand on or off and returns a function that
// restores it. Tests that call it must not run in parallel with others.
func SetForging(on bool) (restore func()) {
	was := forging
	forging = on
	return func() { forging = was }
}

// NoZero reports whether the LineReader's blocks are made without
// zeroing (lines.go).
func NoZero() bool { return noZero }

// SetNoZero turns blocks made without zeroing on or off and returns a
// function that restores it. Tests that call it must not run in parallel
// with others.
func SetNoZero(on bool) (restore func()) {
	was := noZero
	noZero = on
	return func() { noZero = was }
}
