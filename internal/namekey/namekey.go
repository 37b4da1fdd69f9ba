// Package namekey reads a tool name as two words, its first and last
// eight bytes: with its length, all of a name of up to 16 bytes (most
// are), so that two such names compare in three integer comparisons
// instead of a call, and a longer one needs reading whole only when its
// words agree.
//
// Non-goals: hashing (a caller that places names in a table mixes the
// words itself) and names as the options normalize them.
package namekey

// Words returns the first and last eight bytes of a name, the first
// byte lowest; a name of fewer than eight bytes is all in lo, zeros above
// its bytes, and hi is 0. Loops that must call nothing read names of 4
// to 16 bytes with [Word] and [Word4], which inline, as Words does.
func Words(s string) (lo, hi uint64) {
	switch n := len(s); {
	case n >= 8:
		return Word(s), Word(s[n-8:])
	case n >= 4:
		return Word4(s) | Word4(s[n-4:])<<(8*(n-4)), 0
	case n > 0:
		return uint64(s[0]) | uint64(s[n/2])<<(8*(n/2)) | uint64(s[n-1])<<(8*(n-1)), 0
	}
	return 0, 0
}

// Word returns the first eight bytes of s, the first lowest.
func Word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Word4 returns the first four bytes of s, the first lowest.
func Word4(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}
