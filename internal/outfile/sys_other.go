//go:build !unix

package outfile

// ended reports false where processes cannot be asked after: leftover
// temporary files are kept.
func ended(int) bool { return false }

// hold does nothing where an open file cannot be replaced.
func hold(string) func() { return func() {} }
